// The one EdgeKit output channel (a LogOutputChannel). Secrets never reach it: callers pass redacted text (see redact()).
import * as vscode from 'vscode';

let channel: vscode.LogOutputChannel | undefined;

export function logChannel(): vscode.LogOutputChannel {
  if (!channel) channel = vscode.window.createOutputChannel('EdgeKit', { log: true });
  return channel;
}

/** Masks anything that looks like a credential in a line before it is logged. */
export function redact(text: string): string {
  return text
    .replace(/(authorization:\s*bearer\s+)\S+/gi, '$1***')
    .replace(/(x-auth-key:\s*)\S+/gi, '$1***')
    .replace(/([?&](?:access-key-secret|access-key-id|secret|sig|token|api_key|apikey|password|header_authorization)=)[^&\s"]+/gi, '$1***');
}

export const log = {
  info: (msg: string) => logChannel().info(redact(msg)),
  warn: (msg: string) => logChannel().warn(redact(msg)),
  error: (msg: string, err?: unknown) => logChannel().error(redact(err ? `${msg}: ${(err as Error)?.stack ?? err}` : msg)),
  show: () => logChannel().show(true),
};
