import type { CodeTable } from '../../codes';

export const JSONRPC_CODES: CodeTable = {
};
