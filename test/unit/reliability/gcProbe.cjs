// Test-only preload for the language-server soak (node --expose-gc --require gcProbe.cjs dist/server.js --stdio): on SIGUSR2 the
// server process runs full garbage collections (three, then one more once concurrent sweeping is done) and writes its memory figures
// to stderr as one line. stdout stays LSP's.
'use strict';
process.on('SIGUSR2', () => {
  if (typeof global.gc === 'function') for (let i = 0; i < 3; i++) global.gc();
  // V8 sweeps concurrently: right after a GC, pages its sweeper threads have not reached yet still count their garbage as used
  // heap (about 2 MB of a closed document's parse, now and then, on a busy machine). Let them finish, then collect once more.
  setTimeout(() => {
    if (typeof global.gc === 'function') global.gc();
    const m = process.memoryUsage();
    process.stderr.write(`EDGEKIT_SOAK_MEMORY ${JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, gc: typeof global.gc === 'function' })}\n`);
  }, 50);
});
