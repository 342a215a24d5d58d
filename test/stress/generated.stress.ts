// The generated-input tests of the fast suite at their full sizes: the schema/rules differential on 53 000 generated requests,
// and 2 x 200 chains of random edits against a fresh parse (the fast suite runs the same tests smaller).
process.env.EDGEKIT_STRESS = '1';
/* eslint-disable @typescript-eslint/no-require-imports */
require('../unit/jsonrpc/schema.test');
require('../unit/perf/window.test');
