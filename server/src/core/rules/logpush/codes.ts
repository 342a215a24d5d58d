import type { CodeTable } from '../../codes';

export const LOGPUSH_CODES: CodeTable = {
};
