// `edgekit mock [options]` (cliOptions.ts): runs the mock backend until SIGINT/SIGTERM, then closes cleanly.
// Credentials come from --api-token/--api-key/--api-email or EDGEKIT_MOCK_API_TOKEN/_API_KEY/_API_EMAIL; missing ones are generated
// and printed once (given ones are never printed).
import { MOCK_OPTIONS, mockSynopsis } from './cliOptions';
import { shownDestination } from '../../server/src/core';
import { OptionsError, parseOptions } from './options';
import { isLoopback, startMockBackend } from './backend';
import { NETWORKS } from './chain';
import { MAX_RATE, checkConfig, DEFAULT_TRAFFIC } from './traffic/engine';
import { DEFAULT_PER_IP, DEFAULT_PER_USER, parseRateLimit, type RateLimit } from './rateLimit';

export interface CliIo { stdout(s: string): void; stderr(s: string): void }

export interface CliExtras {
  env?: NodeJS.ProcessEnv;
  /** Resolves when the backend should stop; defaults to the first of stopSignals(platform). */
  stop?: Promise<unknown>;
  /** The platform whose stop signals are listened for; process.platform unless given (tests). */
  platform?: NodeJS.Platform;
}

export const USAGE = `${mockSynopsis('edgekit mock', 'Usage: ')}
Serves the gateway (POST /v1/<network>) and the management API (/client/v4) on one port.
The management API is rate limited as the platform's: --rate-limit N/S allows N requests per S seconds per user (default
${DEFAULT_PER_USER.limit}/${DEFAULT_PER_USER.windowSeconds}; over it, HTTP 429 for the next S seconds), besides ${DEFAULT_PER_IP.limit} per second per IP; --rate-limit off turns both off.
Each zone receives synthetic traffic: --traffic-rate requests per second per zone (0-${MAX_RATE}, default ${DEFAULT_TRAFFIC.rate}), replayable
from --traffic-seed (default ${DEFAULT_TRAFFIC.seed}); --traffic-paused starts it paused (PUT /__edgekit/traffic resumes it).
Credentials: --api-token/--api-key/--api-email or EDGEKIT_MOCK_API_TOKEN, EDGEKIT_MOCK_API_KEY, EDGEKIT_MOCK_API_EMAIL;
missing ones are generated and printed once. With --state, all state lives in FILE and survives restarts.
Enabled Logpush jobs of http_requests and firewall_events deliver gzip NDJSON batches: s3:// and r2:// destinations to the
S3-compatible endpoint of --s3-endpoint or EDGEKIT_MOCK_S3_ENDPOINT (credentials --s3-access-key-id/--s3-secret-access-key
or EDGEKIT_MOCK_S3_ACCESS_KEY_ID, EDGEKIT_MOCK_S3_SECRET_ACCESS_KEY, never printed; region --s3-region or
EDGEKIT_MOCK_S3_REGION), https:// to an endpoint on loopback, everything else to the folder of --delivery-dir (default
FILE.logpush next to the state file, or a temp folder).
GET /__edgekit/logpush/deliveries lists them; POST /__edgekit/logpush/flush delivers now.
`;

interface Args {
  host: string; port: number; state?: string; apiToken?: string; apiKey?: string; apiEmail?: string; verbose: boolean; help: boolean;
  traffic: { rate: number; seed: number; paused: boolean };
  /** --rate-limit: the per-user limit, or false (off); undefined: the default. */
  rateLimit?: RateLimit | false;
  deliveryDir?: string; s3Endpoint?: string; s3AccessKeyId?: string; s3SecretAccessKey?: string; s3Region?: string;
}

/** Why the S3 endpoint (given as `by`: the option or the variable) cannot be used: no http(s) URL (it crashed the start with
 * "Invalid URL"), or keys in its user info, which fetch's refusal of such a URL quoted into the job's error_message and the log
 * (they have options of their own). The endpoint is quoted as destinations are, without its user info. */
function s3EndpointProblem(endpoint: string, by: string): string | undefined {
  let u: URL | undefined;
  try { u = new URL(endpoint); } catch { u = undefined; }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || !/^https?:\/\/[^/\s]/i.test(endpoint)) {
    return `${by} needs an http:// or https:// URL, not "${shownDestination(endpoint)}".`;
  }
  if (!u.username && !u.password) return undefined;
  return `${by} takes no user name or password: give the keys with --s3-access-key-id and --s3-secret-access-key (or EDGEKIT_MOCK_S3_ACCESS_KEY_ID and EDGEKIT_MOCK_S3_SECRET_ACCESS_KEY).`;
}

function parseArgs(argv: string[]): Args | string {
  let parsed;
  try {
    parsed = parseOptions(argv, MOCK_OPTIONS, false);
  } catch (err) {
    if (err instanceof OptionsError) return err.message;
    throw err;
  }
  const v = parsed.values;
  const port = v.port ?? '8787';
  if (!/^\d+$/.test(port) || Number(port) > 65535) return `--port needs a port number (0-65535), not "${port}".`;
  if (v.host === '') return '--host needs a value.';
  // An IPv6 address may come in brackets, as a URL writes it; brackets round nothing would leave "", which Node reads as every
  // interface (::)
  const host = v.host?.replace(/^\[(.*)\]$/, '$1');
  if (host !== undefined && !host.trim()) return `--host needs an address, not ${JSON.stringify(v.host)}.`;
  if (v.state === '') return '--state needs a file name.';
  const rate = v['traffic-rate'] ?? String(DEFAULT_TRAFFIC.rate);
  const seed = v['traffic-seed'] ?? String(DEFAULT_TRAFFIC.seed);
  if (!/^\d+(\.\d+)?$/.test(rate) || checkConfig({ ...DEFAULT_TRAFFIC, rate: Number(rate) })) {
    return `--traffic-rate needs a number of requests per second per zone from 0 to ${MAX_RATE}, not "${rate}".`;
  }
  if (!/^\d+$/.test(seed) || checkConfig({ ...DEFAULT_TRAFFIC, seed: Number(seed) })) return `--traffic-seed needs a whole number from 0 to 4294967295, not "${seed}".`;
  const rateLimit = v['rate-limit'] === undefined ? undefined : parseRateLimit(v['rate-limit']);
  if (typeof rateLimit === 'string') return rateLimit;
  if (v['delivery-dir'] === '') return '--delivery-dir needs a folder.';
  return {
    deliveryDir: v['delivery-dir'], s3Endpoint: v['s3-endpoint'], s3AccessKeyId: v['s3-access-key-id'], s3SecretAccessKey: v['s3-secret-access-key'], s3Region: v['s3-region'],
    traffic: { rate: Number(rate), seed: Number(seed), paused: !!v['traffic-paused'] }, rateLimit,
    host: host ?? '127.0.0.1', port: Number(port), state: v.state, apiToken: v['api-token'], apiKey: v['api-key'], apiEmail: v['api-email'],
    verbose: !!v.verbose, help: !!v.help,
  };
}

/**
 * The signals that stop the mock as Ctrl+C does (its state saved, its lock released): SIGINT and SIGTERM; on Windows also SIGHUP,
 * which Node emits when the console window is closed (the usual way to end a program there; Windows ends the process some seconds
 * later), and SIGBREAK (Ctrl+Break). Killed there without its end, the mock left its state lock behind, and Windows soon gives its
 * pid to another process: the next start found the lock held (pidLock.js tells a new process of the same pid by /proc, which
 * Windows has not). Not SIGHUP elsewhere: `nohup edgekit mock &` ignores it, and a listener would undo that (pt1).
 */
export function stopSignals(platform: NodeJS.Platform): NodeJS.Signals[] {
  return platform === 'win32' ? ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] : ['SIGINT', 'SIGTERM'];
}

function signalled(signals: readonly NodeJS.Signals[]): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals) => {
      for (const s of signals) process.off(s, on);
      resolve(sig);
    };
    for (const s of signals) process.on(s, on);
  });
}

/** A refused option as `edgekit lint`'s usage errors read: the message named for the command first, then the synopsis and where the
 * rest is (it was the message bare above the whole help, whose 16 lines pushed it out of view). */
function usageError(message: string): string {
  return `edgekit mock: ${message}\n\n${mockSynopsis('edgekit mock', 'Usage: ')}\nRun "edgekit mock --help" for the details.\n`;
}

export async function runMockCli(argv: string[], io: CliIo, extras: CliExtras = {}): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    io.stderr(usageError(args));
    return 2;
  }
  if (args.help) {
    io.stdout(USAGE);
    return 0;
  }
  const env = extras.env ?? process.env;
  const given = {
    apiToken: args.apiToken ?? env.EDGEKIT_MOCK_API_TOKEN,
    apiKey: args.apiKey ?? env.EDGEKIT_MOCK_API_KEY,
    apiEmail: args.apiEmail ?? env.EDGEKIT_MOCK_API_EMAIL,
  };
  const s3Endpoint = args.s3Endpoint ?? (env.EDGEKIT_MOCK_S3_ENDPOINT || undefined);
  const endpointProblem = s3Endpoint !== undefined ? s3EndpointProblem(s3Endpoint, args.s3Endpoint !== undefined ? '--s3-endpoint' : 'EDGEKIT_MOCK_S3_ENDPOINT') : undefined;
  if (endpointProblem) {
    io.stderr(usageError(endpointProblem));
    return 2;
  }
  const s3 = s3Endpoint ? {
    endpoint: s3Endpoint, accessKeyId: args.s3AccessKeyId ?? env.EDGEKIT_MOCK_S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: args.s3SecretAccessKey ?? env.EDGEKIT_MOCK_S3_SECRET_ACCESS_KEY ?? '', region: args.s3Region ?? env.EDGEKIT_MOCK_S3_REGION,
  } : undefined;
  const stop = extras.stop ?? signalled(stopSignals(extras.platform ?? process.platform));
  let backend;
  try {
    backend = await startMockBackend({
      host: args.host, port: args.port, stateFile: args.state, ...given, traffic: args.traffic, delivery: { dir: args.deliveryDir, s3 },
      ...(args.rateLimit === undefined ? {} : { rateLimit: args.rateLimit && { perUser: args.rateLimit } }),
      log: (line) => {
        // Request lines only with --verbose; warnings (a corrupt state file) always.
        if (args.verbose || !/^[A-Z]+ \//.test(line)) io.stderr(line + '\n');
      },
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // The port's and the address's refusals are the listen's; an EACCES of a file (a state file kept aside) says its own.
    const listen = e.syscall === 'listen';
    const why = !listen && e.code !== 'ENOTFOUND' && e.code !== 'EAI_AGAIN' ? e.message
      : e.code === 'EADDRINUSE' ? `port ${args.port} on ${args.host} is in use (another program, or another mock, listens there); stop it, choose another --port, or --port 0 for any free port.`
      : e.code === 'EADDRNOTAVAIL' ? `--host ${args.host} is not an address of this machine (${e.message}).`
      : e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN' ? `--host ${args.host} does not resolve to an address (${e.message}).`
      : e.code === 'EACCES' ? `port ${args.port} on ${args.host} needs privileges (${e.message}); choose a port above 1023.`
      : e.message;
    io.stderr(`edgekit mock: cannot start: ${why}\n`);
    return 1;
  }
  const base = backend.url;
  const lines = [
    `Gateway URL: ${backend.gatewayUrl}`,
    ...NETWORKS.filter((n) => n.name !== 'mainnet').map((n) => `Gateway URL (${n.name}): ${base}/v1/${n.name}`),
    `API base: ${backend.apiBaseUrl}`,
  ];
  if (!given.apiToken) lines.push(`API token (generated): ${backend.credentials.apiToken}`);
  if (!given.apiKey) lines.push(`API key (generated): ${backend.credentials.apiKey}`);
  if (!given.apiEmail) lines.push(`API email (generated): ${backend.credentials.apiEmail}`);
  if (args.state) lines.push(`State file: ${args.state}`);
  const t = args.traffic;
  lines.push(`Traffic: ${t.rate} requests/s per zone, seed ${t.seed}${t.paused || t.rate === 0 ? ' (paused; PUT /__edgekit/traffic {"paused": false} resumes it)' : ''}`);
  const perUser = args.rateLimit ?? DEFAULT_PER_USER;
  lines.push(`Rate limit: ${perUser ? `${perUser.limit} requests per ${perUser.windowSeconds} s per user, ${DEFAULT_PER_IP.limit} per second per IP (--rate-limit off turns it off)` : 'off'}`);
  lines.push(`Logpush delivery: local folder ${backend.delivery.dir}${s3 ? `; s3:// and r2:// to ${new URL(s3.endpoint).origin}` : '; s3:// and r2:// there too (no --s3-endpoint)'}`);
  lines.push('Press Ctrl+C to stop.');
  io.stdout(lines.join('\n') + '\n');
  // The address the server listens on, as backend.ts decides the Host check by it: --host as written may be another spelling of
  // loopback (0:0:0:0:0:0:0:1, 127.1, a name that resolves to 127.0.1.1), which was warned of as reachable
  if (!isLoopback(new URL(base).hostname.replace(/^\[|\]$/g, ''))) {
    io.stderr(`Warning: --host ${args.host} is not a loopback address: other machines that reach this one can use the mock, with the credentials above, over plain HTTP (no TLS), and the Host header is not checked. Leave --host out to serve this machine only (127.0.0.1).\n`);
  }
  await stop;
  await backend.close();
  io.stdout('Mock backend stopped.\n');
  return 0;
}
