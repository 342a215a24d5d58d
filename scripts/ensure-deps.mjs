// `npm start` and `npm test` on a fresh clone: install the locked dependencies first when they are missing.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

if (!existsSync('node_modules/.package-lock.json') || !existsSync('node_modules/esbuild')) {
  console.log('[edgekit] installing dependencies (npm ci)…');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
