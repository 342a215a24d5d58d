import type { KindPlugin } from '../../types';

export const rulesetPlugin: KindPlugin = { kind: 'waf-ruleset', rules: [] };
