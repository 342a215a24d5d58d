// The language server's command line, read before the server starts (serverStart.ts): vscode-languageserver picks the transport
// from process.argv and, given none, throws from inside its bundle ("Connection input stream is not set"), a stack trace for
// someone who typed `edgekit-language-server` to see whether it is installed. This answers them instead; what the library takes
// (VS Code's --node-ipc, --stdio, --socket, --pipe; lib/node/main.js, _createConnection) runs the server as before.
import { version } from '../../package.json';

const USAGE = `Usage: edgekit-language-server --stdio
EdgeKit's language server speaks LSP over stdin and stdout with --stdio; an editor starts it (docs/editors.md has the
configurations for Neovim, Helix, Emacs, Zed and Sublime Text). VS Code's extension starts it with --node-ipc; --socket=PORT
and --pipe=NAME work too.
  edgekit-language-server --version | --help
`;

/** What to do instead of starting the server (print, then exit with `exit`), or undefined to start it. */
export function serverCommandLine(argv: readonly string[]): { exit: number; stdout?: string; stderr?: string } | undefined {
  if (argv.includes('--help') || argv.includes('-h')) return { exit: 0, stdout: USAGE };
  if (argv.includes('--version')) return { exit: 0, stdout: `${version}\n` };
  const wrong = transportError(argv);
  return wrong === undefined ? undefined : { exit: 2, stderr: `edgekit-language-server: ${wrong}\n\n${USAGE}` };
}

/**
 * Why the library would find no transport in argv, read as it reads it (lib/node/main.js _createConnection: the first of --node-ipc,
 * --stdio, --socket PORT, --socket=PORT, --pipe NAME, --pipe=NAME decides; a port parseInt does not read, or 0, and an empty pipe
 * name are none, and it then throws "Connection input stream is not set"); undefined when it finds one.
 */
function transportError(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--node-ipc' || a === '--stdio') return undefined;
    const [name, ...rest] = a.split('=');
    if (name !== '--socket' && name !== '--pipe') continue;
    const value = a === name ? argv[i + 1] : rest[0];
    if (name === '--socket') {
      return parseInt(value ?? '') ? undefined : value === undefined || value === '' ? '--socket needs a port (--socket=PORT).' : `--socket needs a port (--socket=PORT), not "${value}".`;
    }
    return value ? undefined : '--pipe needs a pipe name (--pipe=NAME).';
  }
  return 'no transport given (run it with --stdio).';
}
