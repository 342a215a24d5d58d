// A minimal LSP client over stdio for the bench: starts the bundled server as a child process and drives it with
// vscode-languageserver-protocol's node connection. It answers the server's requests the way a plain editor would.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import {
  ConfigurationRequest, createProtocolConnection, LogMessageNotification, StreamMessageReader, StreamMessageWriter, type ProtocolConnection,
  type ConfigurationParams, type Position,
} from 'vscode-languageserver-protocol/node';
import type { DocKind } from '../server/src/core';
import { nowMs } from './stats';

export interface ServerHandle {
  conn: ProtocolConnection;
  child: ChildProcess;
  pid: number;
  /** ms from spawn to the initialize response. */
  initializeMs: number;
  /** Server log lines (window/logMessage), kept for error reports. */
  logs: string[];
  /** What the server answered to initialize. */
  serverCapabilities: Record<string, unknown>;
  /** How many `workspace/configuration` requests the server sent (each one a round trip before its answer). */
  configurationRequests: number;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Node options for the server process (e.g. --expose-gc). */
  execArgv?: string[];
  /** Sees each stderr line first; returns true when it consumed the line (it is then not kept in logs). */
  onStderrLine?: (line: string) => boolean;
  /** The client's capabilities, instead of VS Code-like ones (pull diagnostics, configuration, snippets, markdown). */
  capabilities?: Record<string, unknown>;
  initializationOptions?: unknown;
  workspaceFolders?: { uri: string; name: string }[];
  /** Sees each workspace/configuration request the server sends. */
  onConfiguration?: (p: ConfigurationParams) => void;
  /**
   * The client's settings, as an editor holds them: each `workspace/configuration` item gets `settings[item.section]` (or `{}`), and
   * with `pushSettings` they are also sent once in `workspace/didChangeConfiguration` after `initialized`, as vscode-languageclient does
   * with `synchronize.configurationSection` (the way VS Code's JSON server gets its `json.schemas`).
   */
  settings?: Record<string, unknown>;
  pushSettings?: boolean;
}

export async function startServer(serverJs: string, opts: StartOptions = {}): Promise<ServerHandle> {
  const t0 = nowMs();
  const child = spawn(process.execPath, [...(opts.execArgv ?? []), serverJs, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const logs: string[] = [];
  let buffered = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!opts.onStderrLine?.(line)) logs.push(line);
    }
  });
  const conn = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const settings = opts.settings ?? {};
  let configurationRequests = 0;
  conn.onRequest(ConfigurationRequest.type, (p: ConfigurationParams) => {
    configurationRequests++;
    opts.onConfiguration?.(p);
    return p.items.map((item) => (item.section ? settings[item.section] ?? {} : settings));
  });
  // Other server-to-client requests (registerCapability, diagnostic/codeLens refresh, workDoneProgress/create) get null.
  for (const m of ['client/registerCapability', 'client/unregisterCapability', 'workspace/diagnostic/refresh', 'workspace/codeLens/refresh',
    'window/workDoneProgress/create', 'workspace/semanticTokens/refresh', 'workspace/inlayHint/refresh']) conn.onRequest(m, () => null);
  conn.onNotification(LogMessageNotification.type, (p) => { logs.push(p.message); });
  conn.listen();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A server that dies before answering (a wrong path, a crash at start) would leave the request waiting forever.
  const died = new Promise<never>((_, reject) => child.once('exit', (code, signal) => reject(new Error(
    `${serverJs} exited (${signal ?? `code ${code}`}) before answering initialize${logs.length ? `:\n${logs.join('\n')}` : ''}`))));
  const init = await Promise.race([died, conn.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: opts.workspaceFolders ?? null,
    initializationOptions: opts.initializationOptions,
    capabilities: opts.capabilities ?? {
      workspace: { configuration: true, diagnostics: { refreshSupport: true } },
      textDocument: {
        synchronization: { dynamicRegistration: false, didSave: false },
        diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false, relatedInformation: true },
        publishDiagnostics: { relatedInformation: true },
        // As vscode-languageclient declares them: every kind, and code actions as literals.
        completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] }, completionItemKind: { valueSet: Array.from({ length: 25 }, (_, i) => i + 1) } },
        documentSymbol: { symbolKind: { valueSet: Array.from({ length: 26 }, (_, i) => i + 1) } },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source'] } } },
        hover: { contentFormat: ['markdown', 'plaintext'] },
      },
    },
  })]);
  died.catch(() => { /* a later exit is stop()'s business */ });
  const initializeMs = nowMs() - t0;
  await conn.sendNotification('initialized', {});
  if (opts.pushSettings) await conn.sendNotification('workspace/didChangeConfiguration', { settings });
  return {
    conn, child, pid: child.pid!, initializeMs, logs, serverCapabilities: init.capabilities,
    get configurationRequests() { return configurationRequests; },
    async stop() {
      try {
        await Promise.race([conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
        await conn.sendNotification('exit');
      } catch {
        /* the server may already be gone */
      }
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
      conn.dispose();
    },
  };
}

export function uriOf(fileName: string, n = 0): string {
  return `file:///bench/${n ? `${n}-` : ''}${fileName}`;
}

export async function openDoc(conn: ProtocolConnection, uri: string, kind: DocKind, text: string): Promise<void> {
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: kind, version: 1, text } });
}

export interface DiagnosticReport { kind: string; items?: unknown[] }

export function pullDiagnostics(conn: ProtocolConnection, uri: string): Promise<DiagnosticReport> {
  return conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
}

/** Line/character (UTF-16) of an offset. */
export function positionAt(text: string, offset: number): Position {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}

/**
 * One-character edits at a fixed spot, alternating "insert a space" and "delete it", so the text stays valid JSON and its size constant.
 * next() sends the didChange and returns the new version.
 */
export class Editor {
  private version = 1;
  private inserted = false;
  private readonly at: Position;
  constructor(private readonly conn: ProtocolConnection, readonly uri: string, text: string, offset: number) {
    this.at = positionAt(text, offset);
  }
  async next(): Promise<number> {
    this.version++;
    const { line, character } = this.at;
    const change = this.inserted
      ? { range: { start: { line, character }, end: { line, character: character + 1 } }, text: '' }
      : { range: { start: { line, character }, end: { line, character } }, text: ' ' };
    this.inserted = !this.inserted;
    await this.conn.sendNotification('textDocument/didChange', { textDocument: { uri: this.uri, version: this.version }, contentChanges: [change] });
    return this.version;
  }
}

/** VmRSS (resident set) and VmHWM (peak) of a process, in bytes, from /proc (Linux). */
export function memoryOf(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/** Newest modification time under a folder (ms): is a built bundle older than its sources? */
export function newestMtime(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}
