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
  const transport = argv.some((a) => a === '--stdio' || a === '--node-ipc' || /^--(socket|pipe)(=|$)/.test(a));
  return transport ? undefined : { exit: 2, stderr: `edgekit-language-server: no transport given (run it with --stdio).\n\n${USAGE}` };
}
