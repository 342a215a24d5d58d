// Test-only preload for the language-server soak (node --expose-gc --require gcProbe.cjs dist/server.js --stdio): on SIGUSR2 the
// server process runs three full garbage collections and writes its memory figures to stderr as one line. stdout stays LSP's.
'use strict';
process.on('SIGUSR2', () => {
  if (typeof global.gc === 'function') for (let i = 0; i < 3; i++) global.gc();
  const m = process.memoryUsage();
  process.stderr.write(`EDGEKIT_SOAK_MEMORY ${JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, gc: typeof global.gc === 'function' })}\n`);
});
