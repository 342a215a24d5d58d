// Standalone entry of the mock backend: `node --import tsx mock/src/bin.ts [options]` (the CLI's `edgekit mock` calls
// runMockCli the same way).
import { runMockCli } from './main';

runMockCli(process.argv.slice(2), { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) })
  .then((code) => { process.exitCode = code; })
  .catch((err: unknown) => {
    process.stderr.write(`edgekit mock: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  });
