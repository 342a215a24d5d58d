// Where and when EdgeKit proved each destination ownership challenge token, so that Create and Update can say when a job
// document's "ownership_challenge" will not hold: the platform ties a token to the zone or account and the whole destination_conf
// it was asked for, and it expires 7 days after (cloudflare-docs logs/logpush/logpush-job/logpush-ownership-challenge.mdx,
// "Challenge token structure"). Pure (no vscode): the store is a vscode.Memento (the extension's globalState).
import { createHash } from 'node:crypto';
import type { JobOwner, JobPlace } from './http/api';

/** How long the platform accepts a challenge token: "The token expires after 7 days". */
export const CHALLENGE_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;

/** The globalState key, and how many proofs it keeps (the oldest go first; a token is a few hundred bytes of JWT, kept as a hash). */
export const PROOFS_KEY = 'edgekit.logpush.ownershipProofs';
export const MAX_PROOFS = 200;

/** What a vscode.Memento offers. */
export interface ProofStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
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

/**
 * A destination as messages show it and the proofs keep it: without its query (credentials and options ride there), and a Sumo
 * Logic one without its collector code (`sumo://<endpoint>/receiver/v1/http/<code>`: the code is the HTTP source's credential).
 */
export function shownDestination(conf: string): string {
  const d = conf.trim().replace(/\?.*$/, '');
  if (!/^sumo:\/\//i.test(d)) return d;
  const m = /^(sumo:\/\/[^/]*\/receiver\/v1\/http\/)[^/]/i.exec(d);
  return m ? `${m[1]}…` : d.replace(/^(sumo:\/\/[^/]*)\/.+$/i, '$1/…');
}

function proofs(store: ProofStore): Proof[] {
  const v = store.get<unknown>(PROOFS_KEY);
  return Array.isArray(v) ? v.filter((p): p is Proof => typeof p === 'object' && p !== null && typeof (p as Proof).token === 'string') : [];
}

/** Remembers that `token` was proven for `conf` in `place`, asked for at `askedAt`; the newest proof of a token wins. */
export async function rememberProof(store: ProofStore, token: string, place: JobPlace, conf: string, askedAt: number): Promise<void> {
  const key = hash(token);
  const entry: Proof = { token: key, owner: place.owner, ownerName: place.ownerName, conf: hash(conf), destination: shownDestination(conf), askedAt };
  await store.update(PROOFS_KEY, [entry, ...proofs(store).filter((p) => p.token !== key)].slice(0, MAX_PROOFS));
}

/** The proof of `token`, or undefined for a token EdgeKit never proved (pasted by hand): that one is sent as it is. */
export function proofOf(store: ProofStore, token: string): Proof | undefined {
  const key = hash(token);
  return proofs(store).find((p) => p.token === key);
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
