import type { DocKind, KindPlugin } from './types';
import { logpushFilterPlugin, logpushJobPlugin } from './rules/logpush';
import { jsonrpcPlugin } from './rules/jsonrpc';
import { rulesetPlugin } from './rules/ruleset';

export const PLUGINS: Record<DocKind, KindPlugin> = {
  'logpush-filter': logpushFilterPlugin,
  'logpush-job': logpushJobPlugin,
  'jsonrpc-request': jsonrpcPlugin,
  'waf-ruleset': rulesetPlugin,
};
