// Child process of the bench's mock section: starts the embedded mock backend on 127.0.0.1 with a free port, prints one JSON line
// {"url", "gatewayUrl"} and serves until SIGTERM/SIGINT (the bench loads it from another process, as a client would).
// EDGEKIT_BENCH_TRAFFIC=paused starts its sample traffic paused (the idle measurement); otherwise traffic runs at the default rate.
import { startMockBackend } from '../mock/src/backend';

async function main(): Promise<void> {
  const paused = process.env.EDGEKIT_BENCH_TRAFFIC === 'paused';
  const backend = await startMockBackend({ host: '127.0.0.1', port: 0, ...(paused ? { traffic: { paused: true } } : {}) });
  process.stdout.write(JSON.stringify({ url: backend.url, gatewayUrl: backend.gatewayUrl }) + '\n');
  const stop = () => {
    backend.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`mock server failed to start: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
