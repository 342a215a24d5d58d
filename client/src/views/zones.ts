// The "Zones" tree: each zone with its plan, migration state and old/new managed rules status (inline actions per state) and its
// Logpush jobs, then each account with its account-scoped jobs (gateway_dns, audit_logs, ...). A job shows its last delivery: the
// platform's last_complete/last_error/error_message, and with the mock the delivered object itself (openable).
import * as vscode from 'vscode';
import { LIST_PER_PAGE, ZONE_STATUS_CONCURRENCY, incompleteOf, migrationStateLabel as stateLabel, planOf, zoneStateWords, type Account, type Api, type JobOwner, type JobPlace, type StatusRecord, type Zone } from '../http/api';
import { mapLimit } from '../http/limit';
import type { Delivery, MockControl } from '../http/mockControl';
import { MockNotRunning } from '../backend';
import { codeSpan, mdText } from '../markdown';
import { shownDestination } from '../ownershipProofs';
import { when } from '../when';

/**
 * Zones whose migration state a refresh of the Zones view reads (one status request each, ZONE_STATUS_CONCURRENCY at a time): the
 * first 100 listed. An enterprise of 2600 zones sent 2600 requests on every refresh, more than the API's 1200 per 5 minutes; the
 * zones past these read theirs when expanded (ZonesView.getChildren), so a refresh sends the list's pages and at most 100 more.
 */
export const ZONE_STATES_READ = 100;

export class ZoneItem extends vscode.TreeItem {
  /** `unread`: a zone past ZONE_STATES_READ, whose state is read when it is expanded (then setStatus). */
  constructor(readonly zone: Zone, public status: StatusRecord | undefined, public problem?: string, public unread = false) {
    super(zone.name, vscode.TreeItemCollapsibleState.Collapsed);
    this.id = zone.id;
    this.setStatus(status, problem, unread);
  }

  /** Shows the state read (or why it could not be read; or, `unread`, that it is read on expand). */
  setStatus(status: StatusRecord | undefined, problem?: string, unread = false): void {
    const zone = this.zone;
    this.status = status;
    this.problem = problem;
    this.unread = unread;
    const state = status?.migration_state ?? 'unknown';
    this.description = `${planOf(zone)} · ${unread ? 'expand to read its state' : zoneStateWords(status, problem)}`;
    this.contextValue = `zone.${state}`;
    this.iconPath = new vscode.ThemeIcon(state === 'migrated' ? 'pass-filled' : state === 'validation' ? 'beaker' : problem ? 'warning' : 'shield');
    const md = new vscode.MarkdownString(`**${zone.name}** (${planOf(zone)})\n\nZone id \`${zone.id}\`\n\n`);
    if (status) {
      md.appendMarkdown(`- State: **${stateLabel(state)}** (${codeSpan(state)})\n`);
      md.appendMarkdown(`- Previous managed rules: ${status.old_rules_enabled ? 'enabled' : 'disabled'}\n`);
      md.appendMarkdown(`- New managed rules: ${status.new_rules_enabled ? 'enabled' : 'disabled'}\n`);
    }
    if (problem) md.appendMarkdown(`\n$(warning) ${mdText(problem)}`);
    if (unread) md.appendMarkdown(`Its migration state is read when it is expanded (a refresh reads the states of the first ${ZONE_STATES_READ} zones only).`);
    md.supportThemeIcons = true;
    this.tooltip = md;
  }
}

/** An account: its Logpush jobs are its children (account datasets are pushed by account jobs). */
export class AccountItem extends vscode.TreeItem {
  constructor(readonly account: Account) {
    super(account.name, vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `account:${account.id}`;
    this.description = 'account · Logpush jobs';
    this.contextValue = 'account';
    this.iconPath = new vscode.ThemeIcon('organization');
    this.tooltip = new vscode.MarkdownString(`**${account.name}**\n\nAccount id \`${account.id}\`\n\nJobs of account datasets (gateway_dns, audit_logs, ...) live here.`);
  }
}

const lineCount = (n: number) => `${n} line${n === 1 ? '' : 's'}`;

/** The last delivery of a job in a few words: from the job record (the platform's fields) and the mock's delivery list. */
export function lastDeliveryWords(job: Record<string, unknown>, last?: Delivery): string {
  const complete = typeof job.last_complete === 'string' ? job.last_complete : undefined;
  const error = typeof job.last_error === 'string' ? job.last_error : undefined;
  if (error && (!complete || error > complete)) return `delivery failed ${when(error)}${typeof job.error_message === 'string' && job.error_message ? `: ${job.error_message}` : ''}`;
  if (last && last.status === 'delivered') return `delivered ${when(last.at)} · ${lineCount(last.records)}`;
  if (complete) return `delivered ${when(complete)}`;
  return 'nothing delivered yet';
}

/** A Logpush job of a zone or an account (or the reason the list could not be read). */
export class JobItem extends vscode.TreeItem {
  readonly lastDelivery?: Delivery;
  /** `deliveries`: the job's batches the mock still lists, newest first (its children, each openable). */
  /** `place`: where the job lives (the zone or account it is listed under), for the commands on it. */
  constructor(readonly job: Record<string, unknown> | undefined, problem?: string, readonly deliveries: Delivery[] = [], readonly place?: JobPlace) {
    super(job ? String(job.name ?? `job ${String(job.id)}`) : problem ?? 'no Logpush jobs',
      job && deliveries.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    const lastDelivery = this.lastDelivery = deliveries[0];
    if (job) {
      this.id = `job:${String(job.id)}`;
      this.description = `${String(job.dataset)} · ${job.enabled ? lastDeliveryWords(job, lastDelivery) : 'disabled'}`;
      const md = new vscode.MarkdownString(`**Logpush job ${String(job.id)}** (${String(job.dataset)})\n\n`);
      // As the messages show it (no query, user info or Sumo Logic code: credentials ride there), "?…" saying options follow.
      const conf = String(job.destination_conf ?? '');
      md.appendMarkdown(`- Destination: ${codeSpan(`${shownDestination(conf)}${conf.includes('?') ? '?…' : ''}`)}\n`);
      md.appendMarkdown(`- Last delivery: ${mdText(lastDeliveryWords(job, lastDelivery))}\n`);
      if (lastDelivery?.status === 'delivered') md.appendMarkdown(`- Object: ${codeSpan(String(lastDelivery.object))} (${lastDelivery.bytes} bytes)\n`);
      this.tooltip = md;
      this.iconPath = new vscode.ThemeIcon(!job.enabled ? 'circle-slash' : /failed/.test(String(this.description)) ? 'error' : 'cloud-upload');
      // logpushJob[.delivered][.disabled]: the menus offer opening the last delivery, and enabling or disabling, by it.
      this.contextValue = `logpushJob${lastDelivery?.status === 'delivered' ? '.delivered' : ''}${job.enabled ? '' : '.disabled'}`;
      if (lastDelivery?.status === 'delivered') this.command = { command: 'edgekit.logpush.openDelivery', title: 'Open Last Delivery', arguments: [this] };
    } else {
      this.iconPath = new vscode.ThemeIcon(problem ? 'warning' : 'info');
      // Where a job comes from (ui15: a newcomer saw "no Logpush jobs" and nothing more): the view has no button for it.
      if (!problem) {
        this.description = 'create one from a *.logpush.json';
        this.tooltip = 'No Logpush job here yet. Open or write a job file (*.logpush.json) and run "EdgeKit: Create Logpush Job" from its title bar or the Command Palette.';
      }
    }
  }
}

/** One batch a job delivered (or failed to), from the mock's delivery list; a delivered one opens. `jobPlace`: where its job lives
 * (the zone and account picks offer that first while the delivery is selected). */
export class DeliveryItem extends vscode.TreeItem {
  constructor(readonly delivery: Delivery, readonly jobPlace?: JobPlace) {
    // The time and count first (what fits a narrow sidebar), then the object's name as the platform names it.
    const ok = delivery.status === 'delivered';
    super(`${when(delivery.at)} · ${ok ? lineCount(delivery.records) : delivery.status}`, vscode.TreeItemCollapsibleState.None);
    this.id = `delivery:${delivery.id}`;
    this.description = ok || !delivery.error ? delivery.object.split('/').pop() ?? delivery.id : delivery.error;
    const md = new vscode.MarkdownString(`**${delivery.status === 'delivered' ? 'Delivered' : delivery.status === 'failed' ? 'Failed' : 'Waiting'}** ${when(delivery.at)}\n\n`);
    md.appendMarkdown(`- Object: ${codeSpan(String(delivery.object))} (${delivery.records} lines, ${delivery.bytes} bytes)\n`);
    md.appendMarkdown(`- Destination: ${codeSpan(String(delivery.destination))}\n`);
    if (delivery.localPath) md.appendMarkdown(`- On disk: ${codeSpan(delivery.localPath)}\n`);
    if (delivery.error) md.appendMarkdown(`- Error: ${mdText(delivery.error)}\n`);
    this.tooltip = md;
    this.iconPath = new vscode.ThemeIcon(ok ? 'file-zip' : delivery.status === 'failed' ? 'error' : 'clock');
    this.contextValue = ok ? 'logpushDelivery.delivered' : 'logpushDelivery';
    if (ok) this.command = { command: 'edgekit.logpush.openDelivery', title: 'Open Delivered Batch', arguments: [delivery.id] };
  }
}

/** Batches listed under a job at most (the mock keeps the latest 200 of all jobs). */
const DELIVERIES_PER_JOB = 10;

type Item = ZoneItem | AccountItem | JobItem | DeliveryItem;

export class ZonesView implements vscode.TreeDataProvider<Item>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Item | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** The last zone items shown (the zone picks say each one's state as read here). */
  items: ZoneItem[] = [];
  /** The backend the items were read from (Api.source: the base URL, one value for the embedded mock on any port), and when (ms):
   * the zone picks take hints from this backend's only. */
  itemsFrom: string | undefined;
  itemsAt: number | undefined;
  /** The last account items shown. */
  accounts: AccountItem[] = [];
  /** Why the list is empty, when it is for a reason the user should see (shown as the view's message). */
  lastError: string | undefined;
  view: vscode.TreeView<Item> | undefined;

  constructor(private readonly api: () => Promise<Api>, private readonly mock: () => Promise<MockControl | undefined> = async () => undefined) {}

  /**
   * Reads the view again. `changed`: the one zone or account a command acted on (a Check, a job created, updated, enabled or
   * deleted), at backend `source`: when the view shows it from that backend, only it is read again (a zone's state, one request,
   * and its jobs when expanded), not the whole view, which for 2600 zones is 52 + 3 pages and 100 states: a few such commands in
   * five minutes went over the API's 1200 requests. Anything else reads the whole view.
   */
  refresh(changed?: { owner: JobOwner; source: string }): void {
    const owner = changed?.source === this.itemsFrom ? changed?.owner : undefined;
    const item = !owner ? undefined
      : 'zone' in owner ? this.items.find((i) => i.zone.id === owner.zone) : this.accounts.find((i) => i.account.id === owner.account);
    // The jobs its expand kept for its redraw were read before the command acted (rv46): its next read of children reads them again.
    if (item instanceof ZoneItem) this.redrawJobs.delete(item);
    if (item instanceof ZoneItem && !item.unread) void this.readState(item);
    else this.changed.fire(item);
  }

  getTreeItem(item: Item): vscode.TreeItem { return item; }

  async getChildren(parent?: Item): Promise<Item[]> {
    if (parent instanceof AccountItem) return this.jobsOf({ owner: { account: parent.account.id }, ownerName: parent.account.name });
    if (parent instanceof ZoneItem) {
      const redrawn = this.redrawJobs.get(parent);
      this.redrawJobs.delete(parent);
      if (redrawn) return redrawn;
      const jobs = this.jobsOf({ owner: { zone: parent.zone.id }, ownerName: parent.zone.name });
      if (parent.unread) {
        this.redrawJobs.set(parent, jobs);
        void this.readState(parent);
      }
      return jobs;
    }
    if (parent instanceof JobItem) return parent.deliveries.map((d) => new DeliveryItem(d, parent.place));
    if (parent) return [];
    const newest = this.readRoots(++this.seq);
    this.newest = newest;
    return newest;
  }

  /**
   * The jobs an unread zone's expand is reading, for the redraw its state read fires (the tree asks the item's children again):
   * that read them twice. Taken by the next getChildren of the item, so a later expand reads them afresh; dropped by a refresh of
   * the item (a job created or deleted there: VS Code merges the redraws of 200 ms into one read of the children, rv46).
   */
  private readonly redrawJobs = new WeakMap<ZoneItem, Promise<JobItem[]>>();
  private seq = 0;
  private newest?: Promise<Item[]>;
  private reading: AbortController | undefined;

  /**
   * Refreshes overlap (the mock stopping while the zones are read, the tree's own read after a command's refresh): only the latest
   * one started sets the message and the items, and an earlier one resolves with the latest's, once it has set them. It returned
   * at once with its own read, the items not set: a caller that read the items after awaiting it had those of before its read.
   * A newer refresh also ends the pages an older one was still reading (what that one read is not used).
   */
  private async readRoots(seq: number): Promise<Item[]> {
    this.reading?.abort();
    const reading = this.reading = new AbortController();
    const r = await this.read(reading.signal, (words) => { if (seq === this.seq) this.setMessage(words); });
    if (seq !== this.seq) return this.newest!;
    this.lastError = r.error;
    this.setMessage(r.error ?? r.incomplete);
    this.items = r.zones;
    this.accounts = r.accounts;
    this.itemsFrom = r.from;
    this.itemsAt = Date.now();
    return [...r.zones, ...r.accounts];
  }

  /** The state of a zone past ZONE_STATES_READ, read as it is expanded (or of a zone a command acted on): the item shows it once read. */
  private async readState(item: ZoneItem): Promise<void> {
    item.unread = false;
    try {
      const s = await (await this.api()).status(item.zone.id);
      if (s.ok) item.setStatus(s.result);
      else item.setStatus(undefined, s.error);
    } catch (err) {
      item.setStatus(undefined, (err as Error).message);
    }
    this.changed.fire(item);
  }

  /** `progress`: the view's message while a list of more than one page is read ("Reading the zones of …: 150 of 2600"). */
  private async read(signal: AbortSignal, progress: (words: string) => void): Promise<{ zones: ZoneItem[]; accounts: AccountItem[]; error?: string; incomplete?: string; from?: string }> {
    let api: Api;
    try {
      api = await this.api();
    } catch (err) {
      // The embedded mock not started: the view's welcome content says what to do. Anything else (the remote backend without
      // credentials, a setting that is not a URL, credentials saved for another host) is said as the view's message: the welcome
      // content alone offered to start the mock, which the remote backend does not use.
      return { zones: [], accounts: [], error: err instanceof MockNotRunning ? undefined : (err as Error).message };
    }
    const onPage = (noun: string) => (n: number, total: number | undefined) => {
      if (total !== undefined && total > LIST_PER_PAGE) progress(`Reading the ${noun} of ${api.baseUrl}: ${n} of ${total}…`);
    };
    const zones = await api.listZones({ signal, onPage: onPage('zones') });
    if (!zones.ok) return { zones: [], accounts: [], error: zones.error };
    // The states of the first ZONE_STATES_READ zones, a few at a time (ZONE_STATUS_CONCURRENCY); the others' on expand.
    const items = await mapLimit(zones.result.slice(0, ZONE_STATES_READ), ZONE_STATUS_CONCURRENCY, async (z) => {
      const s = await api.status(z.id, { signal });
      return s.ok ? new ZoneItem(z, s.result) : new ZoneItem(z, undefined, s.error);
    });
    items.push(...zones.result.slice(ZONE_STATES_READ).map((z) => new ZoneItem(z, undefined, undefined, true)));
    // A backend without accounts (or that refuses to list them) still shows its zones.
    const accounts = await api.listAccounts({ signal, onPage: onPage('accounts') });
    // A list cut short (its bound, a broken page) is said as the view's message, never shown as if whole.
    const incomplete = incompleteOf(zones, accounts);
    return { zones: items, accounts: accounts.ok ? accounts.result.map((a) => new AccountItem(a)) : [], from: api.source, ...(incomplete ? { incomplete } : {}) };
  }

  private async jobsOf(place: JobPlace): Promise<JobItem[]> {
    try {
      const jobs = await (await this.api()).logpushJobs(place.owner);
      if (!jobs.ok) return [new JobItem(undefined, jobs.error)];
      // With the mock, each job's newest delivery (the list is newest first); without it, the job record's fields only.
      const mock = jobs.result.length ? await this.mock().catch(() => undefined) : undefined;
      const deliveries = mock ? await mock.deliveries() : undefined;
      const ofJob = (id: unknown) => (deliveries?.ok ? deliveries.result.filter((d) => d.job === id).slice(0, DELIVERIES_PER_JOB) : []);
      return jobs.result.length ? jobs.result.map((j) => new JobItem(j, undefined, ofJob(j.id), place)) : [new JobItem(undefined)];
    } catch (err) {
      return [new JobItem(undefined, (err as Error).message)];
    }
  }

  private setMessage(text: string | undefined): void {
    if (this.view) this.view.message = text;
  }

  dispose(): void { this.changed.dispose(); }
}
