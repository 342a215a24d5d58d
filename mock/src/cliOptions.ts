// The options of `edgekit mock`, in one table: the parser (main.ts) takes it as it is, and the synopsis of both usages (main.ts's
// and the CLI's top-level --help, server/src/cli.ts) is written from it, so a new option cannot be missing from either. Nothing
// heavy is imported here: the CLI prints its usage without loading the mock.

/** Each option as node:util's parseArgs takes it, with `arg` (its value's placeholder in the synopsis) and `line` (which line of it). */
export const MOCK_OPTIONS = {
  help: { type: 'boolean', short: 'h', line: -1 },
  host: { type: 'string', arg: '127.0.0.1', line: 0 }, port: { type: 'string', arg: '8787', line: 0 }, state: { type: 'string', arg: 'FILE', line: 0 },
  'api-token': { type: 'string', arg: 'T', line: 0 }, 'api-key': { type: 'string', arg: 'K', line: 0 }, 'api-email': { type: 'string', arg: 'E', line: 0 },
  verbose: { type: 'boolean', line: 0 },
  'rate-limit': { type: 'string', arg: 'N/S', line: 1 },
  'traffic-rate': { type: 'string', arg: 'N', line: 1 }, 'traffic-seed': { type: 'string', arg: 'N', line: 1 }, 'traffic-paused': { type: 'boolean', line: 1 },
  'delivery-dir': { type: 'string', arg: 'DIR', line: 2 }, 's3-endpoint': { type: 'string', arg: 'URL', line: 2 },
  's3-access-key-id': { type: 'string', arg: 'ID', line: 2 }, 's3-secret-access-key': { type: 'string', arg: 'KEY', line: 2 },
  's3-region': { type: 'string', arg: 'R', line: 2 },
} as const;

/**
 * `<margin><command> [--host 127.0.0.1] [--port 8787] …`: every option but --help (the usage is what it prints), its lines after
 * the first indented under the first option.
 */
export function mockSynopsis(command: string, margin = ''): string {
  const lines: string[][] = [];
  for (const [name, o] of Object.entries(MOCK_OPTIONS)) {
    if (o.line < 0) continue;
    (lines[o.line] ??= []).push('arg' in o ? `[--${name} ${o.arg}]` : `[--${name}]`);
  }
  const indent = ' '.repeat(margin.length + command.length + 1);
  return lines.map((l, i) => (i === 0 ? `${margin}${command} ` : indent) + l.join(' ')).join('\n');
}
