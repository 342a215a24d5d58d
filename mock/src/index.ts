// The entry of the mock's bundle (dist/mock.js), which the extension loads on first use.
export { startMockBackend, randomCredentials } from './backend';
export type { LocalMockBackend, MockBackend, MockBackendOptions, MockHealth } from './backend';
export { acquireMockBackend, connectMockBackend, probeMock } from './acquire';
export { parseRateLimit } from './rateLimit';
export type { AcquiredMock } from './acquire';
export type { Credentials } from './management';
