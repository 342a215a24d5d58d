// Where a Logpush job's objects go (docs/mock-backend.md, "Logpush delivery"): `s3://` and `r2://` to the S3-compatible endpoint the
// user configured (aws4fetch signs the requests with SigV4; loaded on first use), `https://` to an endpoint on loopback (a POST of
// the gzip body), and everything else (a bucket without a configured endpoint, a host that is not loopback, gs, azure, …) to a
// local folder the user can open. The mock never sends logs off the machine unless the user configured an endpoint. No vscode.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../state';
import { shownDestination, WINDOWS_DEVICE_NAME } from '../../../server/src/core';

export interface S3Settings {
  /** e.g. http://127.0.0.1:9000 (path-style requests: <endpoint>/<bucket>/<key>). */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Default: the destination's `region`, else us-east-1 (r2: auto). */
  region?: string;
}

export interface DestinationSettings {
  /** The local folder (objects of destinations without a configured endpoint). */
  dir: string;
  s3?: S3Settings;
  /** R2's endpoint; default: the s3 one. */
  r2?: S3Settings;
  /** Disk the local folder may use, in bytes. */
  maxLocalBytes: number;
}

export interface Destination {
  kind: 'local' | 's3' | 'https';
  /** The destination without its query (which may hold secrets), for messages and the delivery list. */
  label: string;
  /** The path below the bucket or folder, `{DATE}` not replaced yet. */
  pathPrefix: string;
  /** Stores one object under `key` (below the bucket or folder); overwrites one of the same key. */
  put(key: string, body: Buffer, opts: { gzip: boolean; signal?: AbortSignal }): Promise<{ localPath?: string }>;
}

export const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** A destination for messages and the delivery list: the client's shownDestination (no query, user info or Sumo Logic code: keys and
 * headers ride there). */
export function destinationLabel(conf: string): string {
  return shownDestination(conf);
}

/** Disk use of the local folder, counted once from the disk and then kept up to date (bounded by maxLocalBytes). */
class LocalUsage {
  private used: number | undefined;
  constructor(private readonly dir: string) {}
  private async walk(d: string): Promise<number> {
    let total = 0;
    let entries;
    try { entries = await fs.readdir(d, { withFileTypes: true }); } catch { return 0; }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) total += await this.walk(p);
      else total += (await fs.stat(p).catch(() => ({ size: 0 }))).size;
    }
    return total;
  }
  async get(): Promise<number> {
    return (this.used ??= await this.walk(this.dir));
  }
  /** Counted again from the disk (the user may have deleted objects since). */
  async recount(): Promise<number> {
    return (this.used = await this.walk(this.dir));
  }
  add(n: number): void {
    if (this.used !== undefined) this.used += n;
  }
}

const usages = new Map<string, LocalUsage>();

/** A destination's path below its bucket or folder, percent escapes decoded; a malformed escape (`%zz`) is kept as written
 * rather than thrown (it made POST …/logpush/ownership answer HTTP 500). */
function pathOf(url: URL): string {
  let p: string;
  try { p = decodeURIComponent(url.pathname); } catch { p = url.pathname; }
  return p.replace(/^\/+/, '');
}

/** A Sumo Logic destination's path below its local folder: the collector code (`sumo://<endpoint>/receiver/v1/http/<code>`, the
 * HTTP source's credential) is replaced by `code-` and 12 hex digits of its SHA-256, so the object key, the folder, the delivery
 * list and the Zones view's tooltip do not hold it, and two collectors still get two folders (sec5). A path of another shape is
 * replaced whole, as shownDestination hides it whole. */
function sumoPath(p: string): string {
  if (!p) return p;
  const digest = (s: string) => `code-${createHash('sha256').update(s).digest('hex').slice(0, 12)}`;
  const m = /^(receiver\/v1\/http\/)(.+)$/is.exec(p);
  return m ? `${m[1]}${digest(m[2])}` : digest(p);
}

/**
 * The file of an object below a local destination's folder: its key's "/"-separated parts as folders, without empty, "." and ".."
 * ones, so that it stays below `root`. With Windows' paths (`p`: path.win32, the platform's `path` on Windows) each part is named
 * as Windows can hold it (windowsName): there a "\" in a part is a separator too ("..\..\x" left the folder), and a ":" names a
 * stream of the file before it. A trailing dot or space and a device name ("con") are made as named (Node's fs names an absolute
 * path literally, as "\\?\C:\..."), but Explorer, cmd and the other Win32 programs then cannot open or delete them (rv40: pt1
 * said Windows dropped the dot and refused the device names).
 */
export function localObjectPath(root: string, key: string, p: path.PlatformPath = path): string {
  const parts = key.split('/').filter((s) => s && s !== '.' && s !== '..');
  return p.join(root, ...(p.sep === '\\' ? parts.map(windowsName) : parts));
}

/** A part of an object key as a Windows file or folder name: the characters Windows refuses in a name (< > : " \ | ? *, control
 * characters) and "%" as %XX, a trailing dot or space (which Win32 programs drop) as %2E or %20, a device name's first letter as %XX. Only
 * "%" is escaped besides, so two keys never share a file (unless they differ in letter case only: Windows and macOS fold it), and
 * the name reads back by decodeURIComponent. */
export function windowsName(part: string): string {
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  let name = part.replace(/[<>:"\\|?*%\u0000-\u001f]/g, hex).replace(/[. ]$/, hex);
  if (WINDOWS_DEVICE_NAME.test(name)) name = hex(name[0]) + name.slice(1);
  return name;
}

function localDestination(conf: string, url: URL | undefined, settings: DestinationSettings, why: string): Destination {
  const scheme = url ? url.protocol.replace(/:$/, '') : 'other';
  const host = url ? (url.hostname || 'default').replace(/[^A-Za-z0-9._-]/g, '_') : 'default';
  const prefix = url ? (scheme === 'sumo' ? sumoPath(pathOf(url)) : pathOf(url)) : '';
  const root = localObjectPath(settings.dir, `${scheme}/${host}`);
  const usage = usages.get(settings.dir) ?? usages.set(settings.dir, new LocalUsage(settings.dir)).get(settings.dir)!;
  return {
    kind: 'local', label: `${destinationLabel(conf)} (the local folder ${root}: ${why})`, pathPrefix: prefix,
    async put(key, body) {
      let used = await usage.get();
      if (used + body.length > settings.maxLocalBytes) used = await usage.recount();
      if (used + body.length > settings.maxLocalBytes) {
        throw new Error(`the local delivery folder ${settings.dir} holds ${used} bytes and this object would take it over its limit of ${settings.maxLocalBytes} bytes; delete delivered objects there or give a larger limit`);
      }
      const file = localObjectPath(root, key);
      const before = (await fs.stat(file).catch(() => ({ size: 0 }))).size;
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, body);
      usage.add(body.length - before);
      return { localPath: file };
    },
  };
}

type AwsClientCtor = typeof import('aws4fetch').AwsClient;
let awsClient: Promise<AwsClientCtor> | undefined;
/** aws4fetch, loaded only when an S3 or R2 destination is used (the mock's start does not pay for it). */
function loadAws(): Promise<AwsClientCtor> {
  return (awsClient ??= import('aws4fetch').then((m) => m.AwsClient));
}

function s3Destination(conf: string, url: URL, s3: S3Settings, r2: boolean): Destination {
  const bucket = url.hostname;
  const prefix = pathOf(url);
  const q = url.searchParams;
  const accessKeyId = q.get('access-key-id') || s3.accessKeyId;
  const secretAccessKey = q.get('secret-access-key') || s3.secretAccessKey;
  const region = q.get('region') || s3.region || (r2 ? 'auto' : 'us-east-1');
  const endpoint = s3.endpoint.replace(/\/+$/, '');
  return {
    kind: 's3', label: `${destinationLabel(conf)} (at ${endpoint})`, pathPrefix: prefix,
    async put(key, body, opts) {
      const AwsClient = await loadAws();
      const client = new AwsClient({ accessKeyId, secretAccessKey, region, service: 's3', retries: 0 });
      const target = `${endpoint}/${encodeURIComponent(bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;
      const res = await client.fetch(target, {
        method: 'PUT', body, signal: opts.signal,
        headers: { 'content-type': opts.gzip ? 'application/gzip' : 'text/plain; charset=utf-8', 'content-length': String(body.length) },
      });
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
        throw new Error(`the S3 endpoint ${endpoint} answered HTTP ${res.status}${code ? ` (${code})` : ''} for bucket "${bucket}"`);
      }
      await res.arrayBuffer().catch(() => undefined);
      return {};
    },
  };
}

function httpsDestination(conf: string, url: URL): Destination {
  // header_<Name>=<value> members become request headers (the platform's HTTP destination); the rest stay in the query.
  const headers: Record<string, string> = {};
  const rest = new URLSearchParams();
  for (const [k, v] of url.searchParams) {
    if (k.startsWith('header_')) headers[k.slice('header_'.length)] = v;
    else rest.append(k, v);
  }
  // A test server on loopback rarely has a certificate: the mock posts to it over plain HTTP (docs/mock-backend.md).
  const target = `http://${url.host}${url.pathname}${rest.toString() ? `?${rest}` : ''}`;
  return {
    kind: 'https', label: destinationLabel(conf), pathPrefix: '',
    async put(key, body, opts) {
      const res = await fetch(target, {
        method: 'POST', body, signal: opts.signal,
        // x-edgekit-object: the batch's object name, the same on every retry (so a receiver can tell a retry from a new batch).
        headers: { ...headers, 'content-type': 'text/plain; charset=utf-8', 'x-edgekit-object': key, ...(opts.gzip ? { 'content-encoding': 'gzip' } : {}) },
      });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new Error(`the endpoint answered HTTP ${res.status}`);
      return {};
    },
  };
}

/** Where `conf` delivers with these settings. */
export function resolveDestination(conf: string, settings: DestinationSettings): Destination {
  let url: URL | undefined;
  try { url = new URL(conf); } catch { url = undefined; }
  const scheme = url?.protocol.replace(/:$/, '');
  if (url && (scheme === 's3' || scheme === 'r2')) {
    const s3 = scheme === 'r2' ? settings.r2 ?? settings.s3 : settings.s3;
    if (s3) return s3Destination(conf, url, s3, scheme === 'r2');
    return localDestination(conf, url, settings, 'no S3 endpoint is configured (edgekit mock --s3-endpoint; in the editor, the setting edgekit.mock.s3Endpoint)');
  }
  if (url && scheme === 'https') {
    if (LOOPBACK.has(url.hostname)) return httpsDestination(conf, url);
    return localDestination(conf, url, settings, 'the mock posts only to endpoints on loopback');
  }
  return localDestination(conf, url, settings, `the mock does not deliver to ${scheme ?? 'this destination'} endpoints`);
}
