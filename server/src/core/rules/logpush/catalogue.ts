// The Logpush vocabulary: datasets, their fields, the filter operators and which field types each operator accepts.
import { DATASETS as TABLE_DATASETS, FIELDS, SCOPE_FIELDS } from './catalogue.data';

export interface DatasetInfo {
  name: string;
  /** 'zone' or 'account' (empty when unknown). */
  scope: string;
  /** Whether a field catalogue exists for the dataset (datasets.tsv names a fields file, or data/logpush-fields/ has one). */
  hasFields: boolean;
}

/** A field type as written in the reference: int, float, string, bool, "int or string", array[int], array[string], object, array[object]. */
export type FieldType = string;

export interface FieldInfo {
  name: string;
  type: FieldType;
  description: string;
  /** False for object types and for fields the reference marks [NOT filterable]. */
  filterable: boolean;
  deprecated?: boolean;
  /** Values listed in the description ("allow|block|..."), offered by completion. */
  values?: string[];
  /** Set on a field the dataset has in jobs of this scope only (firewall_events' ZoneName: account). */
  scope?: Scope;
}

/**
 * Dataset names the platform accepts beyond datasets.tsv (Terraform provider enum, reference/logpush.md; the API's enum as in the
 * cloudflare SDK 7.3.0's logpush/jobs.d.ts), with no field catalogue unless data/logpush-fields/ transcribes its page
 * (zaraz_events, account_abuse_protection_events, websocket_analytics: FIELDS has them). Each has the scope the docs file it under
 * (cloudflare-docs src/content/docs/logs/logpush/logpush-job/datasets/account/ or .../zone/), which decides where its job is
 * created; websocket_analytics is filed under both, so its scope here stays unknown ('') and datasetScopes() gives both.
 */
const EXTRA_DATASETS: Record<string, string> = {
  audit_logs_v2: 'account', dex_application_tests: 'account', dex_device_state_events: 'account', dlp_forensic_copies: 'account',
  email_security_post_delivery_events: 'account', ipsec_logs: 'account', magic_bgp_logs: 'account', mcp_portal_logs: 'account',
  mnm_flow_logs: 'account', turnstile_events: 'account', warp_config_changes: 'account', warp_toggle_changes: 'account',
  account_abuse_protection_events: 'zone', zaraz_events: 'zone', websocket_analytics: '',
};

export const DATASETS: readonly DatasetInfo[] = [
  ...TABLE_DATASETS,
  ...Object.entries(EXTRA_DATASETS).filter(([n]) => !TABLE_DATASETS.some((d) => d.name === n))
    .map(([name, scope]) => ({ name, scope, hasFields: Object.hasOwn(FIELDS, name) })),
];

export const DEFAULT_JOB_DATASET = 'http_requests';

export type Scope = 'zone' | 'account';

/**
 * Datasets the docs file under both scopes (cloudflare-docs src/content/docs/logs/logpush/logpush-job/datasets/account/ and .../zone/
 * each have a page): a job for one of them is created under a zone or under an account. The reference table gives firewall_events
 * one scope, zone; its account page (account-level WAF events) adds the field ZoneName.
 */
const BOTH_SCOPES: ReadonlySet<string> = new Set(['firewall_events', 'websocket_analytics']);

/** The scopes a dataset's job may be created under, its own scope first; none for a name that is no dataset. */
export function datasetScopes(name: string): readonly Scope[] {
  if (BOTH_SCOPES.has(name)) return ['zone', 'account'];
  const scope = datasetInfo(name)?.scope;
  return scope === 'zone' || scope === 'account' ? [scope] : [];
}

export function datasetInfo(name: string): DatasetInfo | undefined {
  return DATASETS.find((d) => d.name === name);
}

/** Each dataset's field list per scope ('' when not known), made once (fieldNamed indexes each list once). */
const SCOPED_LISTS = new Map<string, readonly FieldInfo[]>();

/**
 * A dataset's fields in a job of `scope`: its list, and the fields it has in jobs of that scope only (SCOPE_FIELDS: firewall_events'
 * ZoneName in an account job). Without a scope (a filter file, a job whose place is not known), those of either scope: a field
 * the job may have is not reported. A name that is not a dataset ("constructor", "__proto__" included) has none.
 */
export function datasetFields(dataset: string, scope?: Scope): readonly FieldInfo[] | undefined {
  if (!Object.hasOwn(FIELDS, dataset)) return undefined;
  const own = Object.hasOwn(SCOPE_FIELDS, dataset) ? SCOPE_FIELDS[dataset] : undefined;
  if (!own) return FIELDS[dataset];
  const key = `${dataset}\u0000${scope ?? ''}`;
  let list = SCOPED_LISTS.get(key);
  if (!list) {
    const extra = scope ? own[scope] ?? [] : [...(own.zone ?? []), ...(own.account ?? [])];
    list = extra.length ? [...FIELDS[dataset], ...extra] : FIELDS[dataset];
    SCOPED_LISTS.set(key, list);
  }
  return list;
}

export function fieldInfo(dataset: string, field: string, scope?: Scope): FieldInfo | undefined {
  const fields = datasetFields(dataset, scope);
  return fields && fieldNamed(fields, field);
}

/** Each field list's fields by name (a filter looks one up per comparison; http_requests has over a hundred). */
const BY_NAME = new WeakMap<readonly FieldInfo[], Map<string, FieldInfo>>();

/** The field of that name in the list (the first, as Array.find), or undefined. */
export function fieldNamed(fields: readonly FieldInfo[], name: string): FieldInfo | undefined {
  let m = BY_NAME.get(fields);
  if (!m) {
    m = new Map();
    for (const f of fields) if (!m.has(f.name)) m.set(f.name, f);
    BY_NAME.set(fields, m);
  }
  return m.get(name);
}

/** Each field name's datasets (those with a catalogue, either scope), in table order: made once, on the first unknown field. */
let DATASETS_BY_FIELD: Map<string, string[]> | undefined;

/** The datasets that have a field of that name, in either scope's jobs (QueryName: dns_logs, gateway_dns, …). */
export function datasetsWithField(name: string): readonly string[] {
  if (!DATASETS_BY_FIELD) {
    const m = new Map<string, string[]>();
    for (const dataset of Object.keys(FIELDS)) {
      for (const f of datasetFields(dataset) ?? []) {
        const list = m.get(f.name) ?? [];
        if (!list.includes(dataset)) list.push(dataset);
        m.set(f.name, list);
      }
    }
    DATASETS_BY_FIELD = m;
  }
  return DATASETS_BY_FIELD.get(name) ?? [];
}

/**
 * The fields a new job's starter writes for each dataset (architecture.md, "A job starter's fields"): the line's time, its id
 * where the dataset has one (RayID when it does), then two or three fields that say what the line is about (who, what, the
 * outcome). A dataset whose fields differ by scope (websocket_analytics) has the account's own list in STARTER_FIELDS_OF_SCOPE.
 */
const STARTER_FIELDS: Readonly<Record<string, readonly string[]>> = {
  http_requests: ['EdgeStartTimestamp', 'RayID', 'ClientIP', 'ClientRequestHost', 'EdgeResponseStatus'],
  firewall_events: ['Datetime', 'RayID', 'Action', 'ClientIP', 'ClientRequestHost'],
  dns_logs: ['Timestamp', 'QueryName', 'QueryType', 'ResponseCode', 'SourceIP'],
  nel_reports: ['Timestamp', 'Type', 'Phase', 'ClientIPCountry'],
  page_shield_events: ['Timestamp', 'PolicyID', 'Action', 'Host', 'URL'],
  spectrum_events: ['Timestamp', 'Event', 'Application', 'ClientIP', 'Status'],
  access_requests: ['CreatedAt', 'RayID', 'Email', 'AppDomain', 'Allowed'],
  audit_logs: ['When', 'ID', 'ActorEmail', 'ActionType', 'ResourceType'],
  biso_user_actions: ['Timestamp', 'UserID', 'Type', 'DomainName', 'Decision'],
  casb_findings: ['DetectedTimestamp', 'InstanceID', 'FindingTypeDisplayName', 'FindingTypeSeverity', 'AssetDisplayName'],
  device_posture_results: ['Timestamp', 'DeviceID', 'Email', 'PostureCheckName', 'PostureEvaluatedResult'],
  dns_firewall_logs: ['Timestamp', 'QueryName', 'QueryType', 'ClientResponseCode', 'SourceIP'],
  email_security_alerts: ['Timestamp', 'AlertID', 'From', 'Subject', 'FinalDisposition'],
  gateway_dns: ['Datetime', 'QueryID', 'QueryName', 'ResolverDecision', 'SrcIP'],
  gateway_http: ['Datetime', 'RequestID', 'Action', 'HTTPHost', 'HTTPStatusCode'],
  gateway_network: ['Datetime', 'SessionID', 'Action', 'SourceIP', 'DestinationIP'],
  magic_ids_detections: ['Timestamp', 'SignatureID', 'SignatureMessage', 'SourceIP', 'DestinationIP'],
  network_analytics_logs: ['Datetime', 'AttackID', 'Outcome', 'IPSourceAddress', 'IPDestinationAddress'],
  sinkhole_http_logs: ['Timestamp', 'SinkholeID', 'SrcAddr', 'Host', 'URL'],
  ssh_logs: ['Datetime', 'SessionID', 'Username', 'ClientAddress', 'ServerAddress'],
  workers_trace_events: ['EventTimestampMs', 'ScriptName', 'EventType', 'Outcome'],
  zero_trust_network_sessions: ['SessionStartTime', 'SessionID', 'Email', 'OriginIP', 'ConnectionCloseReason'],
  account_abuse_protection_events: ['Timestamp', 'RayID', 'EventType', 'Email', 'AuthenticationStatus'],
  zaraz_events: ['TimestampStart', 'EventType', 'URL', 'IP'],
  websocket_analytics: ['EdgeStartTimestamp', 'RayID', 'ClientIP', 'ClientRequestHost', 'ConnectionCloseReason'],
};
const STARTER_FIELDS_OF_SCOPE: Readonly<Record<string, Partial<Record<Scope, readonly string[]>>>> = {
  websocket_analytics: { account: ['timestampStartNanos', 'rayId', 'clientIP', 'clientRequestHTTPHost', 'connectionCloseReason'] },
};

/**
 * The fields a new job of the dataset starts with, in a job of `scope` (none given: the dataset's own scope's list), each one the
 * dataset has there; a dataset with a catalogue but not in the table, its first four fields that are not deprecated. Empty for a
 * dataset without a catalogue.
 */
export function starterFields(dataset: string, scope?: Scope): readonly string[] {
  const fields = datasetFields(dataset, scope);
  if (!fields) return [];
  const listed = (scope && Object.hasOwn(STARTER_FIELDS_OF_SCOPE, dataset) ? STARTER_FIELDS_OF_SCOPE[dataset][scope] : undefined)
    ?? (Object.hasOwn(STARTER_FIELDS, dataset) ? STARTER_FIELDS[dataset] : undefined);
  if (!listed) return fields.filter((f) => !f.deprecated).slice(0, 4).map((f) => f.name);
  return listed.filter((name) => fieldNamed(fields, name));
}

// ---- operators ----

export type TypeClass = 'string' | 'int' | 'bool' | 'array' | 'object';

export interface OperatorInfo {
  name: string;
  meaning: string;
  /** The type columns of the spec's operator table that accept the operator. */
  accepts: readonly TypeClass[];
  /** in / !in: the value is a set (an array). */
  set?: boolean;
}

/**
 * The operator x field-type table of the spec (section "Filter expression"). Note: the spec marks in/!in as accepted by array
 * fields; reference/logpush.md (from the public docs) says no. We follow the spec.
 */
export const OPERATORS: readonly OperatorInfo[] = [
  { name: 'eq', meaning: 'equal', accepts: ['string', 'int', 'bool'] },
  { name: '!eq', meaning: 'not equal', accepts: ['string', 'int', 'bool'] },
  { name: 'lt', meaning: 'less than', accepts: ['int'] },
  { name: 'leq', meaning: 'less than or equal', accepts: ['int'] },
  { name: 'gt', meaning: 'greater than', accepts: ['int'] },
  { name: 'geq', meaning: 'greater than or equal', accepts: ['int'] },
  { name: 'startsWith', meaning: 'starts with', accepts: ['string'] },
  { name: 'endsWith', meaning: 'ends with', accepts: ['string'] },
  { name: '!startsWith', meaning: 'does not start with', accepts: ['string'] },
  { name: '!endsWith', meaning: 'does not end with', accepts: ['string'] },
  { name: 'contains', meaning: 'contains', accepts: ['string', 'array'] },
  { name: '!contains', meaning: 'does not contain', accepts: ['string', 'array'] },
  { name: 'in', meaning: 'value is in a set', accepts: ['string', 'int', 'array'], set: true },
  { name: '!in', meaning: 'value is not in a set', accepts: ['string', 'int', 'array'], set: true },
];

export const OPERATOR_NAMES: readonly string[] = OPERATORS.map((o) => o.name);

const OPERATOR_BY_NAME: ReadonlyMap<string, OperatorInfo> = new Map(OPERATORS.map((o) => [o.name, o]));

export function operatorInfo(name: string): OperatorInfo | undefined {
  return OPERATOR_BY_NAME.get(name);
}

/** The type columns a field type belongs to (a union type such as "int or string" belongs to several). */
export function typeClasses(type: FieldType): TypeClass[] {
  const out = new Set<TypeClass>();
  for (const part of type.split(/\s+or\s+/)) {
    const t = part.trim();
    if (t === 'int' || t === 'float') out.add('int');
    else if (t === 'string') out.add('string');
    else if (t === 'bool') out.add('bool');
    else if (t === 'object' || t === 'array[object]') out.add('object');
    else if (t.startsWith('array[')) out.add('array');
  }
  return [...out];
}

/** Field types are few (a dozen spellings): their operators are worked out once each. */
const OPERATORS_FOR = new Map<FieldType, readonly OperatorInfo[]>();

/** Operators allowed for a field type, in table order. */
export function operatorsFor(type: FieldType): readonly OperatorInfo[] {
  let ops = OPERATORS_FOR.get(type);
  if (!ops) {
    const classes = typeClasses(type);
    ops = OPERATORS.filter((o) => o.accepts.some((c) => classes.includes(c)));
    OPERATORS_FOR.set(type, ops);
  }
  return ops;
}

const CLASS_NAMES: Record<TypeClass, string> = { string: 'String', int: 'Int', bool: 'Bool', array: 'Array', object: 'Object' };
export function className(c: TypeClass): string { return CLASS_NAMES[c]; }

// ---- limits ----

export const MAX_OPERATORS = 30;
export const MAX_BYTES = 1000;
/** Warn from this share of a limit. */
export const NEAR_LIMIT = 0.9;

// ---- names ----

