// The reference for the mock's start-up in the bench: a node process started exactly like bench/mockServer.ts that prints one
// JSON line and waits for SIGTERM, doing nothing else.
process.stdout.write(JSON.stringify({ url: 'floor', gatewayUrl: 'floor' }) + '\n');
const keep = setInterval(() => undefined, 1 << 30);
process.once('SIGTERM', () => { clearInterval(keep); process.exit(0); });
