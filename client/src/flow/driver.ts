// Runs the migration flow of one zone: performs each action the machine asks for (API calls, questions, showing the configuration)
// and feeds the outcome back as an event, until a terminal state. No vscode: the command passes `ask`, `progress` and `showConfig`
// built on the editor's UI, and tests pass fakes. Updates (PUT) are never aborted once sent; the signal cancels only between steps
// and the read-only calls.
import type { Api, ApiFail, MigrationConfig, Zone } from '../http/api';
import { deployedConfig } from '../http/api';
import type { Action, Event, State } from './machine';
import { INITIAL, describeState, nextAction, refusal, transition } from './machine';

export interface DriverDeps {
  api: Pick<Api, 'check' | 'config' | 'entrypoint' | 'status' | 'updateEntrypoint'>;
  /** Ask a question; resolve with the chosen label, or undefined when dismissed. `modal` for the irreversible confirmations. */
  ask(question: string, options: string[], opts: { modal: boolean; detail: string; topic?: string }): Promise<string | undefined>;
  /** One line per step, e.g. for a progress notification. */
  progress(step: string): void;
  /**
   * Show the configuration for review; resolve with an adjusted configuration to deploy that instead. `notes`: what the config
   * operation says is not migrated (to recreate during the review), empty when it says nothing.
   */
  showConfig(config: MigrationConfig, notes: string[]): Promise<MigrationConfig | void>;
  /** The inspect step: read and show the zone's security events; sentences comparing the rule sets, or why they cannot be read. */
  inspect?(zone: Zone): Promise<string[] | { error: string }>;
  /** Every state entered, the first being checking. */
  onState?(state: State): void;
  /** Cancels between steps and aborts the read-only requests; never an update in flight. */
  signal?: AbortSignal;
}

/** Longer than any path through the machine; a guard against a driver bug, not a limit anyone reaches. */
const MAX_STEPS = 64;

export async function runMigration(deps: DriverDeps, zone: Zone): Promise<State> {
  let state = transition(INITIAL, { type: 'START', zone });
  for (let n = 0; n < MAX_STEPS; n++) {
    deps.onState?.(state);
    const action = nextAction(state);
    if (action.do === 'done') return state;
    deps.progress(describeState(state));
    const cancel: Event = { type: 'CANCEL' };
    const event = deps.signal?.aborted && refusal(state, cancel) === undefined ? cancel : await perform(deps, zone, action);
    const next = transition(state, event);
    if (next === state) throw new Error(`Migration flow bug: ${refusal(state, event)}`);
    state = next;
  }
  throw new Error(`Migration flow bug: no terminal state after ${MAX_STEPS} steps (last: ${state.name}).`);
}

/**
 * Connection failures before any byte of the request left: no address, no route, no listener, a connection or TLS handshake that
 * did not finish in time (undici's UND_ERR_CONNECT_TIMEOUT: the request is written only once connected), or a handshake refused.
 */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID']);

/**
 * A failed update whose outcome is unknown: the request may have reached the server and been applied. No answer (a timeout, a
 * dropped connection), a server error (5xx: a gateway that timed out waiting for the API, or a failure after the save; RFC 9110
 * §15.6), or a success status whose body is not the API's envelope (the update was taken, the answer was not understood).
 * Only a 4xx refusal, or a failure to connect at all, says that nothing was applied.
 */
function uncertain(res: ApiFail): boolean {
  if (res.kind === 'timeout' || res.kind === 'aborted') return true;
  if (res.kind === 'network') return res.code === undefined || !NEVER_SENT.has(res.code); // no code: nothing says it was not sent
  if (res.status === undefined) return false; // not sent: credentials missing, an invalid URL
  return res.status >= 500 || (res.status >= 200 && res.status <= 299 && res.kind === 'shape');
}

async function perform(deps: DriverDeps, zone: Zone, action: Exclude<Action, { do: 'done' }>): Promise<Event> {
  const signal = deps.signal;
  switch (action.do) {
    case 'start':
      return { type: 'START', zone };
    case 'check': {
      const res = await deps.api.check(zone.id, { signal });
      if (res.ok) return { type: 'CHECK_OK', compatible: res.result.compatible, migration_state: res.result.migration_state, messages: res.messages.map((m) => m.message) };
      return res.kind === 'aborted' ? { type: 'CANCEL' } : { type: 'CHECK_FAILED', error: res.error };
    }
    case 'config':
    case 'deployed-config': {
      const res = action.do === 'config' ? await deps.api.config(zone.id, { signal }) : await deployedConfig(deps.api, zone.id, { signal });
      if (res.ok) return { type: 'CONFIG_OK', config: res.result, notes: res.messages.map((m) => m.message) };
      return res.kind === 'aborted' ? { type: 'CANCEL' } : { type: 'CONFIG_FAILED', error: res.error };
    }
    case 'show-config': {
      const adjusted = await deps.showConfig(action.config, action.notes);
      return adjusted ? { type: 'REVIEWED', config: adjusted } : { type: 'REVIEWED' };
    }
    case 'ask': {
      const answer = await deps.ask(action.question, action.options.map((o) => o.label), { modal: action.modal, detail: action.detail, ...(action.topic ? { topic: action.topic } : {}) });
      return action.options.find((o) => o.label === answer)?.event ?? action.dismissed;
    }
    case 'put': {
      // No signal: once sent, the update's answer is awaited (the machine refuses CANCEL meanwhile).
      const res = await deps.api.updateEntrypoint(zone.id, action.mode, action.body);
      if (res.ok) return { type: 'UPDATE_OK', ruleset: res.result };
      // Where the zone stands now (a read): after a lost answer the update may have taken effect, and a refusal may come from a
      // zone that moved since the check (another client, the dashboard).
      const now = await deps.api.status(zone.id, { signal });
      return { type: 'UPDATE_FAILED', error: res.error, uncertain: uncertain(res), ...(now.ok ? { zoneNow: now.result.migration_state } : {}) };
    }
    case 'inspect': {
      if (!deps.inspect) return { type: 'INSPECTED', inspection: { error: 'this editor cannot show security events' } };
      try {
        const r = await deps.inspect(zone);
        return { type: 'INSPECTED', inspection: Array.isArray(r) ? { sentences: r } : r };
      } catch (err) {
        return { type: 'INSPECTED', inspection: { error: (err as Error).message } };
      }
    }
    case 'status': {
      const res = await deps.api.status(zone.id, { signal });
      if (res.ok) return { type: 'STATUS', status: res.result };
      return res.kind === 'aborted' ? { type: 'CANCEL' } : { type: 'STATUS_FAILED', error: res.error };
    }
    default: {
      const never: never = action;
      throw new Error(`Unexpected action ${JSON.stringify(never)}.`);
    }
  }
}
