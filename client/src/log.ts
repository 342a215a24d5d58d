// The one EdgeKit output channel (a LogOutputChannel). Secrets never reach it: callers pass redacted text (see redact()).
import * as vscode from 'vscode';
import { redact } from './http/redact';

export { redact };

let channel: vscode.LogOutputChannel | undefined;

export function logChannel(): vscode.LogOutputChannel {
  if (!channel) channel = vscode.window.createOutputChannel('EdgeKit', { log: true });
  return channel;
}

export const log = {
  info: (msg: string) => logChannel().info(redact(msg)),
  warn: (msg: string) => logChannel().warn(redact(msg)),
  error: (msg: string, err?: unknown) => logChannel().error(redact(err ? `${msg}: ${(err as Error)?.stack ?? err}` : msg)),
  show: () => logChannel().show(true),
};
