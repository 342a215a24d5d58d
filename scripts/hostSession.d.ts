/** What `session.lock` holds: the process running the session, and where it came from. */
export interface SessionHolder { pid: number; stamp?: string; port?: number; root?: string; since?: string; token?: string }

export interface Session {
  dir: string;
  extensionsDir: string;
  userDataDir: string;
  lockFile: string;
  /** The holder of the stale lock this session replaced. */
  tookOver?: SessionHolder;
  release(): void;
}

export const DEFAULT_PORT: 8080;
/** The session directory for `port`: see hostSession.js. */
export function sessionDir(tools: string, port: number): string;
export function parsePort(value: string | undefined): number;
export function processStamp(pid: number): string | undefined;
/** Writes a session's settings file, keeping what the user set there since the previous start: see hostSession.js. Returns a
 * warning when the file was not valid JSON. */
export function writeSessionSettings(file: string, record: string, defaults: Record<string, unknown>, start: Record<string, unknown>): string | undefined;
export function openSession(opts: { tools: string; port: number; root: string }): Promise<Session>;

export class SessionInUse extends Error {
  readonly port: number;
  readonly holder: SessionHolder;
  readonly lockFile: string;
}
export class PortInUse extends Error {
  readonly port: number;
}
/** The embedded mock's port for a start: MOCK_PORT, else the session settings file's while it is free, else a free one. */
export function sessionMockPort(file: string, envPort: string | undefined): Promise<number>;
/** A free port on 127.0.0.1. */
export function freePort(): Promise<number>;
/** The user settings of npm start's and the test host's VS Code. */
export const USER_DEFAULTS: Readonly<Record<string, unknown>>;
