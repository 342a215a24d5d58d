// Where and when EdgeKit proved each destination ownership challenge token, so that Create and Update can say when a job
// document's "ownership_challenge" will not hold: the platform ties a token to the zone or account and the whole destination_conf
// it was asked for, and it expires 7 days after (cloudflare-docs logs/logpush/logpush-job/logpush-ownership-challenge.mdx,
// "Challenge token structure"). No vscode: the proofs are files in a folder (the extension's global storage folder), one per
// token, so that windows recording proofs at the same time keep all of them (see ProofPlaces).
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { JobOwner, JobPlace } from './http/api';
import { shownDestination } from '../../server/src/core/rules/logpush/shownDestination';

/** How long the platform accepts a challenge token: "The token expires after 7 days". */
export const CHALLENGE_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;

/** The globalState key where proofs were kept before they were files (read once, moved into the folder, then removed). */
export const PROOFS_KEY = 'edgekit.logpush.ownershipProofs';
/** How many proofs the folder keeps (the oldest go first; a proof is a file of about 300 bytes). */
export const MAX_PROOFS = 200;
/** The folder under the global storage folder. */
export const PROOFS_FOLDER = 'ownership-proofs';

/** What a vscode.Memento offers. */
export interface ProofStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

/**
 * Where proofs are kept: `dir`, one file per token (`<sha-256 of the token, hex>.json`), in the extension's global storage
 * folder (shared by every window); `legacy`, the globalState that held them all under PROOFS_KEY before. Not one globalState key
 * per proof: VS Code keeps the whole of an extension's globalState as one storage item, and each window writes its whole copy
 * (extHostMemento.ts), so two windows updating different keys at the same moment still lose one. Two windows writing two files
 * lose nothing.
 */
export interface ProofPlaces {
  dir: string;
  legacy: ProofStore;
}

/**
 * One proof. Neither the token nor the destination_conf is kept as it is (the conf carries credentials: an Azure SAS or header
 * values in its query, a Sumo Logic collector code in its path): their hashes, to compare, and shownDestination, to show.
 */
export interface Proof {
  token: string;
  owner: JobOwner;
  ownerName: string;
  conf: string;
  destination: string;
  /** When the challenge was asked for (ms since the epoch): the platform's token is issued then, so it expires 7 days after. */
  askedAt: number;
}

const hash = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64url');

/** A destination as messages show it and the proofs keep it (core/rules/logpush/shownDestination.ts: no query, user info or Sumo Logic code). */
export { shownDestination };

const isProof = (p: unknown): p is Proof => typeof p === 'object' && p !== null && typeof (p as Proof).token === 'string' && typeof (p as Proof).askedAt === 'number';

/** A proof's file name: its token hash (base64url, as the proof keeps it) in hex, which a case-insensitive file system keeps apart. */
const fileOf = (dir: string, tokenHash: string) => path.join(dir, `${Buffer.from(tokenHash, 'base64url').toString('hex')}.json`);

async function readProof(file: string): Promise<Proof | undefined> {
  try {
    const p: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    return isProof(p) ? p : undefined;
  } catch {
    return undefined; // not there, or not a proof (a hand edit): as never proved
  }
}

/** Writes `proof` as its token's file, whole or not at all (a temporary file renamed over it). */
async function writeProof(dir: string, proof: Proof): Promise<void> {
  const file = fileOf(dir, proof.token);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  await fs.writeFile(tmp, JSON.stringify(proof));
  await fs.rename(tmp, file);
}

/** Writes `proof` only when its token has no file yet, so that a proof moved from globalState never replaces one recorded since:
 * a link of a temporary file (whole at once, and it fails when the name exists), or, on a disk that refuses links, an exclusive
 * create. */
async function addProof(dir: string, proof: Proof): Promise<void> {
  const file = fileOf(dir, proof.token);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const taken = (e: NodeJS.ErrnoException) => { if (e.code !== 'EEXIST') throw e; };
  await fs.writeFile(tmp, JSON.stringify(proof));
  try {
    await fs.link(tmp, file).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code === 'EEXIST') return;
      await fs.writeFile(file, JSON.stringify(proof), { flag: 'wx' }).catch(taken);
    });
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

/** Moves the proofs globalState held (PROOFS_KEY, a list, newest first) into the folder, then removes the key. Two windows doing
 * it at once write the same files; neither replaces a proof recorded since. When a write fails the key stays (proofOf still reads
 * it) and the next record tries again. */
async function migrate(at: ProofPlaces): Promise<void> {
  const old = at.legacy.get<unknown>(PROOFS_KEY);
  if (old === undefined) return;
  try {
    if (Array.isArray(old)) for (const p of old.filter(isProof).slice(0, MAX_PROOFS)) await addProof(at.dir, p);
  } catch {
    return;
  }
  await at.legacy.update(PROOFS_KEY, undefined);
}

/** Drops the oldest proofs beyond MAX_PROOFS, and temporary files a write left behind more than a day ago. */
async function prune(dir: string, now: number): Promise<void> {
  const names = await fs.readdir(dir);
  for (const n of names.filter((n) => n.endsWith('.tmp'))) {
    const stat = await fs.stat(path.join(dir, n)).catch(() => undefined);
    if (stat && now - stat.mtimeMs > 24 * 60 * 60 * 1000) await fs.rm(path.join(dir, n), { force: true });
  }
  const files = names.filter((n) => /^[0-9a-f]+\.json$/.test(n));
  if (files.length <= MAX_PROOFS) return;
  const dated = await Promise.all(files.map(async (n) => ({ n, at: (await readProof(path.join(dir, n)))?.askedAt ?? -Infinity })));
  dated.sort((a, b) => b.at - a.at);
  for (const { n } of dated.slice(MAX_PROOFS)) await fs.rm(path.join(dir, n), { force: true });
}

/** Remembers that `token` was proven for `conf` in `place`, asked for at `askedAt`; the newest proof of a token wins. */
export async function rememberProof(at: ProofPlaces, token: string, place: JobPlace, conf: string, askedAt: number): Promise<void> {
  await fs.mkdir(at.dir, { recursive: true });
  await migrate(at);
  const entry: Proof = { token: hash(token), owner: place.owner, ownerName: place.ownerName, conf: hash(conf), destination: shownDestination(conf), askedAt };
  await writeProof(at.dir, entry);
  await prune(at.dir, Date.now());
}

/** The proof of `token`, or undefined for a token EdgeKit never proved (pasted by hand): that one is sent as it is. */
export async function proofOf(at: ProofPlaces, token: string): Promise<Proof | undefined> {
  const key = hash(token);
  const p = await readProof(fileOf(at.dir, key));
  if (p) return p.token === key ? p : undefined;
  // Not moved out of globalState yet (no proof recorded since the update): read it there.
  const old = at.legacy.get<unknown>(PROOFS_KEY);
  return Array.isArray(old) ? old.filter(isProof).find((q) => q.token === key) : undefined;
}

const ownerKind = (o: JobOwner) => ('zone' in o ? 'zone' : 'account');
const ownerId = (o: JobOwner) => ('zone' in o ? o.zone : o.account);

/**
 * Why a proven token will not hold for a job sent to `place` with destination `conf` at `now`: each reason a clause ("it was proven
 * in zone a.example, and this job goes to zone b.example"); none when it holds.
 */
export function proofProblems(proof: Proof, place: JobPlace, conf: string, now: number): string[] {
  const out: string[] = [];
  if (ownerKind(proof.owner) !== ownerKind(place.owner) || ownerId(proof.owner) !== ownerId(place.owner)) {
    const same = proof.ownerName === place.ownerName;
    const name = (o: JobOwner, n: string) => `${ownerKind(o)} ${n}${same ? ` (${ownerId(o)})` : ''}`;
    out.push(`it was proven in ${name(proof.owner, proof.ownerName)}, and this job goes to ${name(place.owner, place.ownerName)}`);
  }
  if (proof.conf !== hash(conf)) {
    const now = shownDestination(conf);
    const hidden = /^sumo:/i.test(now) ? 'another collector code or other options' : 'other options (the part after "?")';
    out.push(now === proof.destination
      ? `it was proven for ${proof.destination} with ${hidden}, and the platform ties it to the whole destination_conf`
      : `it was proven for ${proof.destination}, and the document sends to ${now}`);
  }
  const age = now - proof.askedAt;
  if (age > CHALLENGE_VALIDITY_MS) {
    const days = Math.floor(age / (24 * 60 * 60 * 1000));
    const when = new Date(proof.askedAt).toISOString().slice(0, 16).replace('T', ' ');
    out.push(`it was asked for ${days} days ago (${when} UTC), and the platform's tokens expire after 7 days`);
  }
  return out;
}
