// The "Security Events" tree: for one zone, what the managed rules did to its traffic. On top, the summary of the embedded mock
// (the previous rules against the new ones: in validation mode, "the new rules would block 14 requests the previous ones only
// logged"); below, the latest firewall_events records, each opening as JSON. The migration's inspect step (validation mode, before
// the pending update) shows its zone here.
import * as vscode from 'vscode';
import type { Api, Zone } from '../http/api';
import { TERMINATING_EVENT_ACTIONS, type MockControl, type SecuritySummary } from '../http/mockControl';
import { ReadOnlyDocuments } from './readOnlyDocuments';

export const EVENTS_SHOWN = 50;

type Kind = 'zone' | 'sentence' | 'counts' | 'events' | 'event' | 'note';

export class EventNode extends vscode.TreeItem {
  constructor(readonly kind: Kind, label: string, opts: { description?: string; tooltip?: string | vscode.MarkdownString; icon?: string; collapsed?: boolean; event?: Record<string, unknown> } = {}) {
    super(label, opts.collapsed === undefined ? vscode.TreeItemCollapsibleState.None : opts.collapsed ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
    this.description = opts.description;
    this.tooltip = opts.tooltip;
    // A screen reader hears a string tooltip in place of the label and description (VS Code's tree reads it first): the zone's
    // state and request count were not read. Both are said before the tooltip.
    if (typeof opts.tooltip === 'string' && opts.description) this.accessibilityInformation = { label: `${label}, ${opts.description.replace(/ · /g, ', ')}. ${opts.tooltip}` };
    if (opts.icon) this.iconPath = new vscode.ThemeIcon(opts.icon);
    this.contextValue = `securityEvents.${kind}`;
    this.event = opts.event;
    if (opts.event) this.command = { command: 'edgekit.securityEvents.openEvent', title: 'Open Event', arguments: [opts.event] };
  }
  readonly event: Record<string, unknown> | undefined;
}

const TERMINATING = TERMINATING_EVENT_ACTIONS;

/** "block 3 · log 12" from an action count, terminating actions first. */
export function actionCounts(actions: Record<string, number>): string {
  const entries = Object.entries(actions).filter(([, n]) => n > 0);
  entries.sort(([a, x], [b, y]) => Number(TERMINATING.has(b)) - Number(TERMINATING.has(a)) || y - x || a.localeCompare(b));
  return entries.length ? entries.map(([a, n]) => `${a} ${n}`).join(' · ') : 'no action taken';
}

function eventLabel(e: Record<string, unknown>): string {
  const action = String(e.EdgeKitWouldAction ? `${String(e.Action)} (would ${String(e.EdgeKitWouldAction)})` : e.Action ?? '?');
  return `${action} ${String(e.ClientRequestMethod ?? '')} ${String(e.ClientRequestPath ?? '')}`.replace(/\s+/g, ' ').trim();
}

function sourceLabel(source: unknown): string {
  // firewall_events spells the new managed rules firewallmanaged; http_requests' SecuritySources and analytics firewallManaged.
  const s = String(source ?? '').toLowerCase();
  return s === 'waf' ? 'previous rules' : s === 'firewallmanaged' ? 'new rules' : String(source ?? 'unknown source');
}

/** The workspace state's key for the zone shown: { backend, zone: { id, name } }. */
const KEPT_ZONE = 'edgekit.securityEvents.zone';

/** Read-only documents of single security events (scheme edgekit-event), opened from the view. */
export const EVENT_SCHEME = 'edgekit-event';

export class SecurityEventsView implements vscode.TreeDataProvider<EventNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<EventNode | undefined>();
  /** 500 event documents are kept for reopening (each is a few hundred bytes). A JSON string, not a comment, for one no longer
   * kept: the document's language is json, where a comment is an error in the Problems view. */
  private readonly eventDocuments = new ReadOnlyDocuments(EVENT_SCHEME, {
    kept: 500, gone: '"This security event is no longer kept; open it again from the Security Events view."\n',
  });
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(EVENT_SCHEME, this.eventDocuments);
  readonly onDidChangeTreeData = this.changed.event;
  zone: Zone | undefined;
  /** The backend the zone belongs to (its `memory.backend()` when shown or kept). */
  private zoneBackend: string | undefined;
  /** What the last refresh showed, for tests and the migration's question. */
  summary: SecuritySummary | undefined;
  events: Record<string, unknown>[] = [];
  /** How many events the zone keeps (result_info.total_count), when the backend says: the view shows the newest EVENTS_SHOWN. */
  eventsTotal: number | undefined;
  lastError: string | undefined;
  view: vscode.TreeView<EventNode> | undefined;
  private children: EventNode[] = [];

  /** Read from the workspace's memory (a zone shown in an earlier window of the same backend) and not yet loaded. */
  private restored = false;

  /**
   * `memory`: where the zone shown is kept across windows (the workspace state), for the backend it belongs to (`backend()` names
   * the one the settings name now: zone ids are a backend's own).
   */
  constructor(private readonly sources: () => Promise<{ api: Api; mock?: MockControl }>,
    private readonly memory?: { state: vscode.Memento; backend: () => string }) {
    const kept = memory?.state.get<{ backend?: unknown; zone?: Partial<Zone> }>(KEPT_ZONE);
    if (kept && kept.backend === memory!.backend() && typeof kept.zone?.id === 'string' && typeof kept.zone.name === 'string') {
      this.zone = kept.zone as Zone;
      this.zoneBackend = kept.backend;
      this.restored = true;
    }
  }

  /** Show a zone's events (and bring the view up). */
  async show(zone: Zone): Promise<void> {
    this.zone = zone;
    this.zoneBackend = this.memory?.backend();
    this.restored = false;
    void this.memory?.state.update(KEPT_ZONE, { backend: this.memory.backend(), zone: { id: zone.id, name: zone.name } });
    await this.load();
    this.changed.fire(undefined);
    await vscode.commands.executeCommand('edgekit.securityEvents.focus');
  }

  async refresh(): Promise<void> {
    await this.load();
    this.changed.fire(undefined);
  }

  getTreeItem(node: EventNode): vscode.TreeItem { return node; }

  /**
   * A read-only document of one event, the same one each time the event is opened: an untitled buffer was dirty from the start, so
   * each click left a pinned tab that asked "Save changes?" when closed. Keyed by the whole record: one request (one RayID) can have
   * several events (the previous and the new rules, in validation mode).
   */
  eventDocument(event: Record<string, unknown>): vscode.Uri {
    const text = JSON.stringify(event, null, 2) + '\n';
    const ray = String(event.RayID ?? 'event').replace(/[^\w.-]+/g, '_').slice(0, 40);
    return this.eventDocuments.add((n) => `/${ray}-${n}.json`, text, text);
  }

  getChildren(parent?: EventNode): EventNode[] | Promise<EventNode[]> {
    if (!parent && this.restored) {
      // The zone of an earlier window: read when the view is first shown (which loads the commands bundle), not at activation.
      this.restored = false;
      return this.load().then(() => (this.zone ? this.roots() : []));
    }
    if (!parent) return this.zone ? this.roots() : [];
    if (parent.kind === 'events') return this.children;
    return [];
  }

  /**
   * The backend settings changed: forget the zone when it belongs to another backend than the one they name now (zone ids are a
   * backend's own). A change event that leaves the backend as it was (a workspace value equal to the user's, a settings file written
   * again) keeps it. Without a memory of backends, any change forgets it.
   */
  backendChanged(): void {
    if (!this.zone || !this.memory || this.zoneBackend !== this.memory.backend()) this.clear();
  }

  /** Forget the zone: it belongs to the backend the settings no longer name. */
  clear(): void {
    this.zone = undefined;
    this.restored = false;
    void this.memory?.state.update(KEPT_ZONE, undefined);
    this.summary = undefined;
    this.events = [];
    this.eventsTotal = undefined;
    this.children = [];
    this.lastError = undefined;
    this.seq++;
    this.latest = undefined;
    this.setMessage();
    this.changed.fire(undefined);
  }

  private seq = 0;
  private latest: Promise<void> | undefined;

  /**
   * Reads the summary and the latest events; errors become the view's message, never an exception. Refreshes overlap (the backend
   * changing while a command shows a zone): the last one started decides what the view holds, set at once when it ends, and an
   * earlier one resolves only then (show() returns with what the view holds).
   */
  private load(): Promise<void> {
    const zone = this.zone;
    if (!zone) return Promise.resolve();
    const p = this.read(zone, ++this.seq);
    this.latest = p;
    return p;
  }

  private async read(zone: Zone, seq: number): Promise<void> {
    let lastError: string | undefined;
    let summary: SecuritySummary | undefined;
    let events: Record<string, unknown>[] = [];
    let total: number | undefined;
    try {
      const src = await this.sources();
      const [s, e] = await Promise.all([src.mock?.securitySummary(zone.id), src.api.securityEvents(zone.id, { per_page: EVENTS_SHOWN })]);
      if (s && s.ok) summary = s.result;
      else if (s) lastError = s.error;
      if (e.ok) { events = e.result; total = e.total; }
      else lastError = [lastError, e.error].filter(Boolean).join(' ');
    } catch (err) {
      lastError = (err as Error).message;
    }
    if (seq !== this.seq) {
      await this.latest;
      return;
    }
    this.lastError = lastError;
    this.summary = summary;
    this.events = events;
    this.eventsTotal = total;
    this.children = this.events.map((e) => new EventNode('event', eventLabel(e), {
      description: `${sourceLabel(e.Source)} · rule ${String(e.RuleID ?? '?')} · ${String(e.Datetime ?? '')}`,
      tooltip: new vscode.MarkdownString('```json\n' + JSON.stringify(e, null, 2) + '\n```'),
      icon: TERMINATING.has(String(e.EdgeKitWouldAction ?? e.Action)) ? 'shield' : 'eye',
      event: e,
    }));
    this.setMessage();
  }

  private roots(): EventNode[] {
    const zone = this.zone!;
    const s = this.summary;
    const out: EventNode[] = [new EventNode('zone', zone.name, {
      description: s ? `${stateWords(s.state)} · ${s.requests} requests` : undefined, icon: 'globe',
      tooltip: `Security events of ${zone.name}${s ? ` ${s.span ?? `from ${s.since} to ${s.until}`}` : ''}.`,
    })];
    if (s) {
      for (const line of s.sentences) out.push(new EventNode('sentence', line, { icon: 'lightbulb', tooltip: line }));
      out.push(new EventNode('counts', 'Previous rules', { description: `${s.previous.acted} acted · ${actionCounts(s.previous.actions)}`, icon: 'history' }));
      out.push(new EventNode('counts', 'New rules', { description: `${s.new.acted} acted · ${actionCounts(s.new.actions)}`, icon: 'sparkle' }));
    }
    // The newest EVENTS_SHOWN (one page): of how many the zone keeps, when there are more (result_info.total_count).
    const n = this.events.length;
    const label = !n ? 'No security events yet' : this.eventsTotal !== undefined && this.eventsTotal > n ? `Latest ${n} of ${this.eventsTotal} events` : `Latest events (${n})`;
    out.push(new EventNode('events', label, {
      icon: 'list-flat', collapsed: this.events.length ? false : undefined,
      tooltip: this.events.length ? undefined : 'No rule has acted on this zone\'s traffic yet. With the mock, "Send Sample Traffic…" sends a burst of the size you pick.',
    }));
    return out;
  }

  private setMessage(): void {
    if (this.view) this.view.message = this.lastError;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}

function stateWords(state: string): string {
  return state === 'start' ? 'previous rules only' : state === 'validation' ? 'validation mode: both rule sets run' : state === 'migrated' ? 'new rules only' : state;
}
