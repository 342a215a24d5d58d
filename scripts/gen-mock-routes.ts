// Rewrites the route index of docs/mock-backend.md from the mock's route table (mock/src/management.ts ROUTES). `npm run docs:routes`.
// test/unit/mock/routes.test.ts fails when the page is out of date.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EDGEKIT_ROUTES, ROUTES } from '../mock/src/management';
import { withBlock } from './gen-readme-codes';

export const START = '<!-- routes:start -->';
export const END = '<!-- routes:end -->';
const AUTH = { token: '`Authorization: Bearer`', key: '`X-Auth-Key` + `X-Auth-Email`', either: 'either', none: 'none' } as const;

export function routeTable(): string {
  const rows = ROUTES.map((r) => `| \`${r.method}\` | \`/client/v4${r.path.replace(/:(\w+)/g, '<$1>')}\` | ${AUTH[r.auth]} |`);
  // The mock's own routes (not the platform's): the same credentials, either form.
  rows.push(...EDGEKIT_ROUTES.map((r) => `| \`${r.method}\` | \`${r.path.replace(/:(\w+)/g, '<$1>')}\` | ${AUTH.either} |`));
  return [START, '| Method | Path | Credentials |', '|---|---|---|', ...rows, END].join('\n');
}

export function withRoutes(page: string): string {
  return withBlock(page, START, END, routeTable(), 'docs/mock-backend.md');
}

if (require.main === module) {
  const file = path.resolve(__dirname, '..', 'docs', 'mock-backend.md');
  fs.writeFileSync(file, withRoutes(fs.readFileSync(file, 'utf8')));
  console.log(`docs/mock-backend.md: ${ROUTES.length + EDGEKIT_ROUTES.length} routes`);
}
