import type { KindPlugin } from '../../types';

export const jsonrpcPlugin: KindPlugin = { kind: 'jsonrpc-request', rules: [] };
