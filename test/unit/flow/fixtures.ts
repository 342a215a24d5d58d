// Zones, a configuration and one sample of every state and event, shared by the flow tests.
import type { MigrationConfig, StatusRecord, Zone } from '../../../client/src/http/api';
import type { Event, EventType, State, StateName } from '../../../client/src/flow/machine';

export const PRO: Zone = { id: 'zone-pro', name: 'pro.example', plan: { legacy_id: 'pro' } };
export const BUSINESS: Zone = { id: 'zone-biz', name: 'business.example', plan: { legacy_id: 'business' } };
export const ENT: Zone = { id: 'zone-ent', name: 'enterprise.example', plan: { legacy_id: 'enterprise' } };

export const CONFIG: MigrationConfig = {
  name: 'default',
  rules: [
    { id: 'a'.repeat(32), version: '1', ref: 'r1', action: 'execute', expression: 'true', description: 'Managed ruleset', enabled: true, action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } },
  ],
};

export const STATUS_MIGRATED: StatusRecord = { migration_state: 'migrated', old_rules_enabled: false, new_rules_enabled: true };
export const STATUS_VALIDATION: StatusRecord = { migration_state: 'validation', old_rules_enabled: true, new_rules_enabled: true };

/** One state of each name (a Pro zone where the state allows it). */
export const STATES: Record<StateName, State> = {
  idle: { name: 'idle' },
  checking: { name: 'checking', zone: PRO },
  'not-eligible': { name: 'not-eligible', zone: PRO, reason: 'Zone "pro.example" (pro) is not eligible.' },
  'fetching-config': { name: 'fetching-config', zone: PRO, from: 'start' },
  reviewing: { name: 'reviewing', zone: PRO, from: 'start', config: CONFIG },
  'choose-mode': { name: 'choose-mode', zone: ENT, config: CONFIG },
  'confirm-migrate': { name: 'confirm-migrate', zone: PRO, from: 'start', config: CONFIG },
  'updating-validation': { name: 'updating-validation', zone: ENT, config: CONFIG },
  'updating-pending': { name: 'updating-pending', zone: PRO, from: 'start', config: CONFIG },
  'reading-status': { name: 'reading-status', zone: PRO, target: 'migrated' },
  validation: { name: 'validation', zone: ENT, resumed: true },
  inspecting: { name: 'inspecting', zone: ENT, resumed: true },
  migrated: { name: 'migrated', zone: PRO, already: false },
  failed: { name: 'failed', zone: PRO, step: 'check', error: 'boom', zoneState: 'unknown' },
  cancelled: { name: 'cancelled', zone: PRO, at: 'reviewing', zoneState: 'start' },
};

/** One event of each type. */
export const EVENTS: Record<EventType, Event> = {
  START: { type: 'START', zone: PRO },
  CHECK_OK: { type: 'CHECK_OK', compatible: true, migration_state: 'start' },
  CHECK_FAILED: { type: 'CHECK_FAILED', error: 'HTTP 500' },
  CONFIG_OK: { type: 'CONFIG_OK', config: CONFIG },
  CONFIG_FAILED: { type: 'CONFIG_FAILED', error: 'HTTP 500' },
  REVIEWED: { type: 'REVIEWED' },
  CONFIRM_VALIDATION: { type: 'CONFIRM_VALIDATION' },
  CONFIRM_MIGRATE: { type: 'CONFIRM_MIGRATE' },
  FINISH: { type: 'FINISH' },
  INSPECT: { type: 'INSPECT' },
  INSPECTED: { type: 'INSPECTED', inspection: { sentences: ['The new rules would block 2 requests the previous ones only logged.'] } },
  DECLINE: { type: 'DECLINE' },
  UPDATE_OK: { type: 'UPDATE_OK' },
  UPDATE_FAILED: { type: 'UPDATE_FAILED', error: 'HTTP 409' },
  STATUS: { type: 'STATUS', status: STATUS_MIGRATED },
  STATUS_FAILED: { type: 'STATUS_FAILED', error: 'HTTP 500' },
  CANCEL: { type: 'CANCEL' },
};

/** Every payload variant worth exploring, for reachability checks. */
export const ALL_EVENT_VARIANTS: Event[] = [
  ...Object.values(EVENTS),
  { type: 'START', zone: ENT },
  { type: 'CHECK_OK', compatible: false, migration_state: 'start', messages: ['blocked'] },
  { type: 'CHECK_OK', compatible: true, migration_state: 'validation' },
  { type: 'CHECK_OK', compatible: true, migration_state: 'migrated' },
  // The mock's answer for a migrated zone: it cannot move again, and says so.
  { type: 'CHECK_OK', compatible: false, migration_state: 'migrated', messages: ['Zone "pro.example" is in migration_state "migrated": it has already migrated.'] },
  { type: 'CHECK_OK', compatible: true, migration_state: 'other' },
  { type: 'REVIEWED', config: { name: 'edited', rules: [] } },
  { type: 'UPDATE_FAILED', error: 'timeout', uncertain: true },
  { type: 'UPDATE_FAILED', error: 'timeout', uncertain: true, zoneNow: 'migrated' },
  { type: 'UPDATE_FAILED', error: 'timeout', uncertain: true, zoneNow: 'validation' },
  { type: 'UPDATE_FAILED', error: 'HTTP 409', zoneNow: 'migrated' },
  { type: 'UPDATE_FAILED', error: 'HTTP 409', zoneNow: 'start' },
  { type: 'UPDATE_OK', ruleset: { id: 'rs' } },
  { type: 'STATUS', status: STATUS_VALIDATION },
  { type: 'STATUS', status: { migration_state: 'start', old_rules_enabled: true, new_rules_enabled: false } },
];
