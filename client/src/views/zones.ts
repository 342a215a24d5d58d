// The "Zones" tree: each zone with its plan, migration state and old/new managed rules status; inline actions per state.
import * as vscode from 'vscode';
import { planOf, type Api, type StatusRecord, type Zone } from '../http/api';

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

function stateLabel(state: string): string {
  return state === 'start' ? 'not migrated' : state === 'validation' ? 'validation mode' : state === 'migrated' ? 'migrated' : state;
}

export class ZonesView implements vscode.TreeDataProvider<ZoneItem>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ZoneItem | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** The last items shown, for tests. */
  items: ZoneItem[] = [];
  /** Why the list is empty, when it is for a reason the user should see (shown as the view's message). */
  lastError: string | undefined;
  view: vscode.TreeView<ZoneItem> | undefined;

  constructor(private readonly api: () => Promise<Api>) {}

  refresh(): void { this.changed.fire(undefined); }

  getTreeItem(item: ZoneItem): vscode.TreeItem { return item; }

  async getChildren(parent?: ZoneItem): Promise<ZoneItem[]> {
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
    return this.items;
  }

  private setMessage(text: string | undefined): void {
    if (this.view) this.view.message = text;
  }

  dispose(): void { this.changed.dispose(); }
}
