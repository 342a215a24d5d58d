// The mock's PRNG is the core's (server/src/core/prng.ts): one mulberry32 for the chain, the sample traffic, the bench and the tests.
export { mulberry32 } from '../../server/src/core';
