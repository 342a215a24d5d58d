import type { KindPlugin } from '../../types';

export const logpushFilterPlugin: KindPlugin = { kind: 'logpush-filter', rules: [] };
export const logpushJobPlugin: KindPlugin = { kind: 'logpush-job', rules: [] };
