// The hostile inputs of test/unit/fuzz/hostile.test.ts at their full sizes: 100 000 levels of nesting, 1 MB strings and keys,
// a 5.3 MB document checked with the size limit raised, 3000 generated runs (the fast suite runs the same tests smaller).
process.env.EDGEKIT_STRESS = '1';
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('../unit/fuzz/hostile.test');
