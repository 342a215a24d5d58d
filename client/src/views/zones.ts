// The "Zones" tree: each zone with its plan, migration state and old/new managed rules status (inline actions per state), then
// each account with its account-scoped Logpush jobs (gateway_dns, audit_logs, ...).
import * as vscode from 'vscode';
import { planOf, type Account, type Api, type StatusRecord, type Zone } from '../http/api';

export class ZoneItem extends vscode.TreeItem {
  constructor(readonly zone: Zone, readonly status: StatusRecord | undefined, readonly problem?: string) {
    super(zone.name, vscode.TreeItemCollapsibleState.None);
    const state = status?.migration_state ?? 'unknown';
    this.id = zone.id;
    this.description = `${planOf(zone)} · ${problem ? 'status unavailable' : stateLabel(state)}`;
    this.contextValue = `zone.${state}`;
    this.iconPath = new vscode.ThemeIcon(state === 'migrated' ? 'pass-filled' : state === 'validation' ? 'beaker' : problem ? 'warning' : 'shield');
    const md = new vscode.MarkdownString(`**${zone.name}** (${planOf(zone)})\n\nZone id \`${zone.id}\`\n\n`);
    if (status) {
      md.appendMarkdown(`- Migration state: **${stateLabel(state)}** (\`${state}\`)\n`);
      md.appendMarkdown(`- Previous managed rules: ${status.old_rules_enabled ? 'enabled' : 'disabled'}\n`);
      md.appendMarkdown(`- New managed rules: ${status.new_rules_enabled ? 'enabled' : 'disabled'}\n`);
    }
    if (problem) md.appendMarkdown(`\n$(warning) ${problem}`);
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

/** A Logpush job of an account (or the reason the list could not be read). */
export class JobItem extends vscode.TreeItem {
  constructor(readonly job: Record<string, unknown> | undefined, problem?: string) {
    super(job ? String(job.name ?? `job ${String(job.id)}`) : problem ?? 'no Logpush jobs', vscode.TreeItemCollapsibleState.None);
    if (job) {
      this.id = `job:${String(job.id)}`;
      this.description = `${String(job.dataset)} · ${job.enabled ? 'enabled' : 'disabled'}`;
      this.tooltip = `Logpush job ${String(job.id)}: dataset ${String(job.dataset)}, destination ${String(job.destination_conf ?? '').replace(/\?.*$/, '?…')}`;
      this.iconPath = new vscode.ThemeIcon(job.enabled ? 'cloud-upload' : 'circle-slash');
      this.contextValue = 'logpushJob';
    } else {
      this.iconPath = new vscode.ThemeIcon(problem ? 'warning' : 'info');
    }
  }
}

type Item = ZoneItem | AccountItem | JobItem;

function stateLabel(state: string): string {
  return state === 'start' ? 'not migrated' : state === 'validation' ? 'validation mode' : state === 'migrated' ? 'migrated' : state;
}

export class ZonesView implements vscode.TreeDataProvider<Item>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Item | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** The last zone items shown, for tests. */
  items: ZoneItem[] = [];
  /** The last account items shown. */
  accounts: AccountItem[] = [];
  /** Why the list is empty, when it is for a reason the user should see (shown as the view's message). */
  lastError: string | undefined;
  view: vscode.TreeView<Item> | undefined;

  constructor(private readonly api: () => Promise<Api>) {}

  refresh(): void { this.changed.fire(undefined); }

  getTreeItem(item: Item): vscode.TreeItem { return item; }

  async getChildren(parent?: Item): Promise<Item[]> {
    if (parent instanceof AccountItem) return this.jobsOf(parent);
    if (parent) return [];
    let api: Api;
    try {
      api = await this.api();
    } catch {
      // Not started or not configured: the view's welcome content says what to do.
      this.lastError = undefined;
      this.setMessage(undefined);
      this.items = [];
      return [];
    }
    const zones = await api.listZones();
    if (!zones.ok) {
      this.lastError = zones.error;
      this.setMessage(zones.error);
      this.items = [];
      return [];
    }
    this.lastError = undefined;
    this.setMessage(undefined);
    this.items = await Promise.all(zones.result.map(async (z) => {
      const s = await api.status(z.id);
      return s.ok ? new ZoneItem(z, s.result) : new ZoneItem(z, undefined, s.error);
    }));
    // A backend without accounts (or that refuses to list them) still shows its zones.
    const accounts = await api.listAccounts();
    this.accounts = accounts.ok ? accounts.result.map((a) => new AccountItem(a)) : [];
    return [...this.items, ...this.accounts];
  }

  private async jobsOf(parent: AccountItem): Promise<JobItem[]> {
    try {
      const jobs = await (await this.api()).logpushJobs({ account: parent.account.id });
      if (!jobs.ok) return [new JobItem(undefined, jobs.error)];
      return jobs.result.length ? jobs.result.map((j) => new JobItem(j)) : [new JobItem(undefined)];
    } catch (err) {
      return [new JobItem(undefined, (err as Error).message)];
    }
  }

  private setMessage(text: string | undefined): void {
    if (this.view) this.view.message = text;
  }

  dispose(): void { this.changed.dispose(); }
}
