// Standalone entry of the mock backend: `node --import tsx mock/src/bin.ts [options]` (the CLI's `edgekit mock` calls
// runMockCli the same way). Its output goes through the CLI's writers (stdio.ts): `… | head -1`, then Ctrl+C, wrote "Mock backend
// stopped." to the closed pipe, and Node printed its EPIPE stack.
import { runMockCli } from './main';
import { processIo } from './stdio';

const io = processIo('edgekit mock');
runMockCli(process.argv.slice(2), io)
  .then((code) => { process.exitCode = io.exitCode(code); })
  .catch((err: unknown) => {
    io.stderr(`edgekit mock: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  });
