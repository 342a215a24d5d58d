// Compiles the extension-host suite (test/integration/*.ts) to out/test/integration/*.js; vscode and mocha stay external.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';

// A renamed or deleted test file must not leave its old build behind (the runner loads every *.test.js there).
fs.rmSync('out/test/integration', { recursive: true, force: true });
const entryPoints = fs.readdirSync('test/integration').filter((f) => f.endsWith('.ts')).map((f) => `test/integration/${f}`);
await esbuild.build({
  entryPoints, outdir: 'out/test/integration', bundle: true, platform: 'node', format: 'cjs', target: 'node20',
  sourcemap: true, external: ['vscode', 'mocha'], logLevel: 'warning', mainFields: ['module', 'main'],
});
console.log(`[esbuild] built ${entryPoints.length} integration test files`);
