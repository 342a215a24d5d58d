// The management API for the chosen backend (embedded mock or configured endpoint with saved credentials).
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { Config } from '../config';
import { createApi, incompleteOf, planOf, zoneStateWords, type Account, type Api, type ApiResult, type JobPlace, type ListOptions, type StatusRecord, type Zone } from '../http/api';
import { when } from '../when';
import { UserError } from './run';
import { SETTINGS_ACTIONS, type Endpoints } from '../backend';

/** Api.source of the embedded mock, whatever port it was started on: every start serves the same state file. */
export const EMBEDDED_MOCK = 'the embedded mock';

/** Api.source of the backend `ep` names: EMBEDDED_MOCK, or the API base URL without its trailing "/" (as createApi keeps it). One
 * place for apiFor and what compares a run's backend with the one in use now (the migration's last buttons; rv40: a copy). */
export function sourceOf(ep: Pick<Endpoints, 'embedded' | 'apiBaseUrl'>): string {
  return ep.embedded ? EMBEDDED_MOCK : ep.apiBaseUrl.replace(/\/+$/, '');
}

export async function apiFor(ctx: Ctx, interactive = true): Promise<Api> {
  const ep = await ctx.backend.endpoints('api', interactive);
  return createApi({ baseUrl: ep.apiBaseUrl, token: ep.apiToken, apiKey: ep.apiKey, apiEmail: ep.apiEmail, timeoutMs: Config.requestTimeoutMs(),
    source: sourceOf(ep), embeddedMock: ep.embedded });
}

/**
 * Requests a command waits on with nothing else on screen (a click in the Zones view, a palette command after its questions): the
 * window's discreet progress, a spinner in the status bar whose hover says `title`, shows that something is under way, as VS Code's
 * guidelines ask of background progress (a notification is kept for the long runs that have one: Send, Update, Test Filter, a
 * migration). Questions are asked outside it.
 */
export function whileWaiting<T>(title: string, task: () => Promise<T>): Promise<T> {
  return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `EdgeKit: ${title}` }, task));
}

/** Whether the management API cannot be asked in this window: the remote backend in an untrusted workspace, whose requests
 * backend.ts refuses (the embedded mock answers there as in a trusted one). A question leaves out, or refuses, what would read it. */
export function apiRefusedHere(): boolean {
  return Config.backend() === 'remote' && !vscode.workspace.isTrusted;
}

/** The result, or a UserError whose message says what failed, where, and what the server said. */
export function unwrap<T>(r: ApiResult<T>): T {
  if (r.ok) return r.result;
  throw new UserError(r.error);
}

/** An account from a command argument (tree item, id or name) or a quick pick. `why`: what needs an account, said when the argument
 * names a zone instead. `viewHints`: the pick offers the account selected in the Zones view (or owning the job selected) first. */
export async function pickAccount(api: Api, arg: unknown, title: string, why?: string, viewHints: ZoneHints = {}): Promise<Account> {
  const wanted = typeof arg === 'string' ? arg : (arg as { account?: Account } | undefined)?.account?.id;
  if (wanted) {
    const accounts = listedOrRefuse(api, await api.listAccounts());
    const a = accounts.items.find((x) => x.id === wanted || x.name === wanted);
    if (!a) {
      const z = why ? await otherKind(api.listZones(), wanted) : undefined;
      if (z) throw new UserError(`"${wanted}" is a zone at ${api.baseUrl}${z.name !== wanted ? ` (${z.name})` : ''}, not an account: ${why}.`);
      throw new UserError(`No account "${wanted}" at ${api.baseUrl}.${notAll(accounts)}`);
    }
    return a;
  }
  type Item = vscode.QuickPickItem & { account: Account; id: string };
  const pick = await pickWhileReading<Listed<Account>, Item>({ title, loading: `Reading the accounts of ${api.baseUrl}…` },
    (reading) => api.listAccounts(reading.list('accounts')).then((r) => listedOrRefuse(api, r)), ({ items: accounts, incomplete }) => {
      if (!accounts.length) throw new UserError(`No account at ${api.baseUrl} to pick from (${NONE_LISTED}).`);
      const items = accounts.map((a) => ({ label: a.name, description: a.id, account: a, id: a.id }));
      // One account: nothing to ask (the pick that showed the read closes), unless the list was cut: there may be others.
      if (accounts.length === 1 && !incomplete) return { only: items[0] };
      return { items: selectedFirst(items, hintsFor(api, viewHints)), placeholder: withIncomplete('Pick an account', incomplete) };
    });
  return pick.account;
}

/** A list as read for a pick: its items, and why it is not whole when it is not (ApiOk.incomplete). */
interface Listed<T> { items: T[]; incomplete?: string }

/** What a pick's read is given: the ListOptions of one of its lists (`noun`: "zones"), with the signal that Escape aborts, and whose
 * pages read so far the busy pick's placeholder counts. */
interface Reading { list(noun: string): ListOptions }

/** A pick's placeholder, then why the list offered is not all there is. */
const withIncomplete = (placeholder: string, incomplete: string | undefined) => (incomplete ? `${placeholder}. ${incomplete}` : placeholder);

/** What an error that found nothing adds when the list searched was not read whole. */
const notAll = (l: Listed<unknown>) => (l.incomplete ? ` ${l.incomplete}` : '');

/**
 * A quick pick that opens at once, busy, its placeholder saying what is read (`loading`, then how many of each list are read so
 * far), while `read` runs; `offer` turns what it read into the items and placeholder to show, or the one answer there is (`only`:
 * no question), or throws (an empty list). A read that fails closes the pick and rejects with its error. Escape while it reads
 * ends the question (CancellationError), aborts the read (no further page is asked for) and what it brings later is dropped: no
 * pick, list or error shows up after the user left.
 */
async function pickWhileReading<L, I extends vscode.QuickPickItem>(opts: { title: string; loading: string; matchOnDescription?: boolean },
  read: (reading: Reading) => Promise<L>, offer: (listed: L) => { items: I[]; placeholder: string } | { only: I }): Promise<I> {
  const pick = vscode.window.createQuickPick<I>();
  pick.title = opts.title;
  pick.placeholder = opts.loading;
  pick.matchOnDescription = !!opts.matchOnDescription;
  pick.busy = true;
  const disposables: vscode.Disposable[] = [];
  const abort = new AbortController();
  // Pages read so far, per list: "Reading the zones of …… 150 of 2600 zones".
  const counts = new Map<string, string>();
  const reading: Reading = {
    list: (noun) => ({
      signal: abort.signal,
      onPage: (n, total) => {
        counts.set(noun, `${n}${total !== undefined ? ` of ${total}` : ''} ${noun}`);
        if (pick.busy) pick.placeholder = `${opts.loading} ${[...counts.values()].join(', ')}`;
      },
    }),
  };
  try {
    return await new Promise<I>((resolve, reject) => {
      let ended = false;
      const end = (settle: () => void) => { if (!ended) { ended = true; settle(); } };
      disposables.push(
        pick.onDidHide(() => end(() => { abort.abort(); reject(new vscode.CancellationError()); })),
        pick.onDidAccept(() => { const [chosen] = pick.selectedItems; if (chosen && !pick.busy) end(() => resolve(chosen)); }),
      );
      pick.show();
      read(reading).then((listed) => {
        if (ended) return;
        const offered = offer(listed);
        if ('only' in offered) return end(() => resolve(offered.only));
        pick.items = offered.items;
        pick.placeholder = offered.placeholder;
        pick.busy = false;
      }).catch((err: unknown) => end(() => reject(err)));
    });
  } finally {
    for (const d of disposables) d.dispose();
    pick.dispose();
  }
}

/** The list read (and why it is not whole, when it is not), or readOrRefuse's UserError. */
function listedOrRefuse<T>(api: Api, r: ApiResult<T[]>): Listed<T> {
  return { items: readOrRefuse(api, r), ...(r.ok && r.incomplete ? { incomplete: r.incomplete } : {}) };
}

/** The list read, or a UserError that says what failed and offers the way forward: a backend that cannot be reached (the embedded
 * mock stopped, a remote address wrong or down), credentials refused. */
function readOrRefuse<T>(api: Api, r: ApiResult<T>): T {
  if (r.ok) return r.result;
  if (r.kind === 'network' || r.kind === 'timeout') {
    if (Config.backend() === 'remote') {
      throw new UserError(`${r.error} Is the management API at ${api.baseUrl} up, and is "edgekit.api.baseUrl" its address?`, SETTINGS_ACTIONS('edgekit.api.baseUrl'));
    }
    throw new UserError(`${r.error} The embedded mock backend at ${api.baseUrl} did not answer: start it again.`, [{ title: 'Start Mock Backend', command: 'edgekit.mock.start' }]);
  }
  if (r.kind === 'credentials' || r.status === 401 || r.status === 403) {
    throw new UserError(`${r.error} Set credentials that may read it.`, [{ title: 'Set API Credentials…', command: 'edgekit.setApiCredentials' }]);
  }
  throw new UserError(r.error);
}

/** An empty list of zones or accounts: what the pick says instead of opening empty. */
const NONE_LISTED = 'the API listed none for these credentials';

/** What the Zones view knows when a command asks for a zone: the zone selected in it (or whose job is), and each zone's migration
 * state as it last read it, from which backend and when. */
export interface ZoneHints {
  /** The id of the zone, or (for the picks that offer accounts too) the account, selected in the view or owning the job selected. */
  selected?: string;
  /** What the pick says of the one selected: "selected in the Zones view", or that it owns the job (or the delivery's job) selected there. */
  selectedWhy?: string;
  /** The view's words for a zone's state ("not migrated", "status unavailable"), undefined for a zone it did not read. */
  stateOf?(zoneId: string): string | undefined;
  /** The backend (Api.source: its API base URL, one value for the embedded mock on any port) the view read all this from, and when
   * (ms). A pick of another backend takes none of it: zone ids are no backend's own, and the embedded mock and a standalone one
   * share theirs. */
  from?: string;
  readAt?: number;
}

export function zoneHints(ctx: Ctx): ZoneHints {
  const view = ctx.zones;
  if (!view?.itemsFrom) return {};
  // The view's items are of the activation bundle's classes: read by shape (a zone item has `zone`, an account item `account`, a
  // job item its `place`, a delivery item its job's `jobPlace`).
  const sel = view.view?.selection?.[0] as { zone?: Zone; account?: Account; place?: JobPlace; jobPlace?: JobPlace } | undefined;
  const owner = (sel?.place ?? sel?.jobPlace)?.owner as { zone?: string; account?: string } | undefined;
  const selected = sel?.zone?.id ?? sel?.account?.id ?? owner?.zone ?? owner?.account;
  const selectedWhy = selected === undefined ? undefined
    : sel?.place ? 'owns the job selected in the Zones view' : sel?.jobPlace ? 'owns the job of the delivery selected in the Zones view' : 'selected in the Zones view';
  // A zone past the view's ZONE_STATES_READ, not expanded, has no state read: the pick says none.
  const items = (view.items ?? []) as { zone: Zone; status?: StatusRecord; problem?: string; unread?: boolean }[];
  const states = new Map(items.filter((i) => !i.unread).map((i) => [i.zone.id, zoneStateWords(i.status, i.problem)]));
  return { selected, selectedWhy, stateOf: (id) => states.get(id), from: view.itemsFrom, readAt: view.itemsAt };
}

/** The hints that apply to a pick of `api`'s backend: none from a view that read another one. */
function hintsFor(api: Api, hints: ZoneHints): ZoneHints {
  return hints.from === api.source ? hints : {};
}

/** `items` with the one the hints select first, its detail saying why (the selection in the view, or the job selected there). */
function selectedFirst<T extends vscode.QuickPickItem & { id: string }>(items: T[], hints: ZoneHints): T[] {
  const at = items.findIndex((i) => i.id === hints.selected);
  return at < 0 ? items : [{ ...items[at], detail: hints.selectedWhy }, ...items.slice(0, at), ...items.slice(at + 1)];
}

/** A zone from a command argument (tree item, id or name) or a quick pick. `why`: what needs a zone, said when the argument names an
 * account instead. `viewHints`: the pick offers the zone selected in the Zones view first, and says each zone's migration state as
 * the view read it, and when (none of it from a view that read another backend). */
export async function pickZone(api: Api, arg: unknown, title: string, why?: string, viewHints: ZoneHints = {}): Promise<Zone> {
  const wanted = typeof arg === 'string' ? arg : (arg as { zone?: Zone } | undefined)?.zone?.id;
  if (wanted) {
    const byId = await zoneById(api, wanted);
    if (byId) return byId;
    const zones = listedOrRefuse(api, await api.listZones());
    const z = zones.items.find((x) => x.id === wanted || x.name === wanted);
    if (!z) {
      const a = why ? await otherKind(api.listAccounts(), wanted) : undefined;
      if (a) throw new UserError(`"${wanted}" is an account at ${api.baseUrl}${a.name !== wanted ? ` (${a.name})` : ''}, not a zone: ${why}.`);
      throw new UserError(`No zone "${wanted}" at ${api.baseUrl}.${notAll(zones)}`);
    }
    return z;
  }
  const pick = await pickWhileReading({ title, loading: `Reading the zones of ${api.baseUrl}…`, matchOnDescription: true },
    (reading) => api.listZones(reading.list('zones')).then((r) => listedOrRefuse(api, r)), ({ items: zones, incomplete }) => {
    if (!zones.length) throw new UserError(`No zone at ${api.baseUrl} to pick from (${NONE_LISTED}).`);
    const hints = hintsFor(api, viewHints);
    // (An account selected in the view says nothing of which zone.)
    let stated = false;
    const items = selectedFirst(zones.map((z) => {
      const state = hints.stateOf?.(z.id);
      if (state) stated = true;
      return { label: z.name, description: [planOf(z), ...(state ? [state] : []), z.id].join(' · '), zone: z, id: z.id };
    }), hints);
    // The states are the view's, as of its last read: a migration since (the CLI, another window, a mock reset) is not in them.
    const placeholder = stated && hints.readAt !== undefined ? `Pick a zone (migration states as the Zones view read them at ${when(hints.readAt)})` : 'Pick a zone';
    return { items, placeholder: withIncomplete(placeholder, incomplete) };
  });
  return pick.zone;
}

/** Zone `id` read by its id (a view item's zone, an id typed): one request, where the list of 2600 zones is 52 pages (up to
 * MAX_LIST_PAGES) on each click of a zone's inline Check. Undefined for a name or on any failure: the caller reads the list, which
 * finds a name and says why not. */
async function zoneById(api: Api, id: string): Promise<Zone | undefined> {
  const r = await api.zone(id);
  return r.ok && r.result.id === id ? r.result : undefined;
}

/** The zone or account of the other list that `wanted` names (by id or name), when that list can be read. */
async function otherKind<T extends { id: string; name: string }>(listed: Promise<ApiResult<T[]>>, wanted: string): Promise<T | undefined> {
  const r = await listed;
  return r.ok ? r.result.find((x) => x.id === wanted || x.name === wanted) : undefined;
}

/** A zone or an account, for a job of a dataset the platform takes under either (firewall_events): `arg` names one (its id or name, a
 * tree item's zone or account), else the user picks among the zones and the accounts. */
export async function pickZoneOrAccount(api: Api, arg: unknown, title: string, viewHints: ZoneHints = {}): Promise<JobPlace> {
  const item = arg as { zone?: Zone; account?: Account } | undefined;
  const wanted = typeof arg === 'string' ? arg : item?.zone?.id ?? item?.account?.id;
  // Either list may be refused (a token with zone access only): the other is offered alone, and the pick says why.
  const read = (reading?: Reading) => Promise.all([api.listZones(reading?.list('zones')), api.listAccounts(reading?.list('accounts'))]).then(([listedZones, listedAccounts]) => {
    if (!listedZones.ok && !listedAccounts.ok) readOrRefuse(api, listedZones);
    return {
      zones: listedZones.ok ? listedZones.result : [],
      accounts: listedAccounts.ok ? listedAccounts.result : [],
      unlisted: !listedZones.ok ? `the zones could not be listed: ${listedZones.error}` : !listedAccounts.ok ? `the accounts could not be listed: ${listedAccounts.error}` : undefined,
      incomplete: incompleteOf(listedZones, listedAccounts),
      looked: !listedAccounts.ok ? 'zone' : !listedZones.ok ? 'account' : 'zone or account',
    };
  });
  const zonePlace = (z: Zone): JobPlace => ({ owner: { zone: z.id }, ownerName: z.name });
  const accountPlace = (a: Account): JobPlace => ({ owner: { account: a.id }, ownerName: a.name });
  if (wanted) {
    const byId = item?.zone ? await zoneById(api, wanted) : undefined;
    if (byId) return zonePlace(byId);
    const { zones, accounts, unlisted, incomplete, looked } = await read();
    const z = zones.find((x) => x.id === wanted || x.name === wanted);
    if (z) return zonePlace(z);
    const a = accounts.find((x) => x.id === wanted || x.name === wanted);
    if (a) return accountPlace(a);
    throw new UserError(`No ${looked} "${wanted}" at ${api.baseUrl}${unlisted ? `; ${unlisted}` : ''}.${notAll({ items: [], incomplete })}`);
  }
  const pick = await pickWhileReading({ title, loading: `Reading the zones and accounts of ${api.baseUrl}…` }, read, ({ zones, accounts, unlisted, incomplete, looked }) => {
    if (!zones.length && !accounts.length) throw new UserError(`No ${looked} at ${api.baseUrl} to pick from (${[NONE_LISTED, unlisted].filter(Boolean).join('; ')}).`);
    const items = selectedFirst<vscode.QuickPickItem & { place: JobPlace; id: string }>([
      ...zones.map((z) => ({ label: z.name, description: `zone · ${planOf(z)} · ${z.id}`, place: zonePlace(z), id: z.id })),
      ...accounts.map((a) => ({ label: a.name, description: `account · ${a.id}`, place: accountPlace(a), id: a.id })),
    ], hintsFor(api, viewHints));
    return { items, placeholder: withIncomplete(unlisted ? `Pick ${looked === 'account' ? 'an' : 'a'} ${looked} (${unlisted})` : 'Pick a zone or an account', incomplete) };
  });
  return pick.place;
}
