import type { CodeTable } from '../../codes';

export const RULESET_CODES: CodeTable = {
};
