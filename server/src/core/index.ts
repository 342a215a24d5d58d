// The one entry point to the checking core, as vscode-json-languageservice's getLanguageService is: the language server, the
// CLI, the mock and the bench use this module only (test/unit/imports.test.ts enforces it), never the core's inner modules.
// Pure: no vscode, no LSP library, no file system or network; any I/O is the caller's.
import { complete, hover, inlayHints, lenses, signatureHelp } from './assist';
import { CODES, codeAnchor, codeInfo } from './codes';
import { detectKind, isDocKind, kindFromSchemaRef, KIND_PATTERNS } from './kinds';
import { LineTable, formatProblemLine, lineStarts } from './lines';
import { parseDocument, type ParseOptions } from './parse';
import { filterUsageOf } from './usage';
import { selectionRanges } from './selection';
import { semanticTokenSteps, semanticTokens, type SemanticToken } from './semanticTokens';
import { autoFixes, fixAll, type FixAllResult } from './fixAll';
import { Cancelled, validateText, type ValidateOptions } from './validate';
import { filterToJobString, jobStringToFilter, usageText } from './rules/logpush';
import { datasetFields, datasetInfo, datasetScopes, DATASETS } from './rules/logpush/catalogue';
import { jobScopeField, jobScopes } from './rules/logpush/job';
import { terraformAnswer, toTerraform } from './rules/ruleset';
import {
  LIMITS as GATEWAY_LIMITS, SUPPORTED_METHODS, UNSUPPORTED_METHODS, checkParamValues, nearMethods,
} from './rules/jsonrpc/params';
import { sendInfo, type SendInfo } from './rules/jsonrpc/features';
import { MANAGED_PHASE, MANAGED_RULESETS, MANAGED_RULESET_ID, OWASP_RULESET_ID, PHASES, TERMINATING_ACTIONS } from './rules/ruleset/catalog';
import { mapOldAction, mapSensitivity } from './migration/mapping';
import { forAjv } from './schema/registry';
import type { CompletionEntry, CoreOptions, DocKind, HoverInfo, InlayHintInfo, Lens, ParsedDoc, Problem, SignatureInfo, Span } from './types';

export type {
  CompletionEntry, CompletionKind, CoreOptions, DocKind, Edit, Fix, HoverInfo, InlayHintInfo, JsonPath, Lens, ParsedDoc, Problem, Severity, SignatureInfo, Span,
} from './types';
export { DEFAULT_OPTIONS, DOC_KINDS } from './types';
export type { ValidateOptions } from './validate';
export type { ParseOptions } from './parse';
export type { Position } from './lines';
export type { Usage } from './usage';
export type { TerraformOutput } from './rules/ruleset';
export type { FixAllResult } from './fixAll';
export type { SendInfo };
export type { SemanticModifier, SemanticToken, SemanticType } from './semanticTokens';
export { Cancelled, LineTable, formatProblemLine, lineStarts };
export { isObj, parseExact, stringifyExact, withExactIntegers, type Obj } from './json';
export { compileFilter, filterValueReaders, TextFieldValues, type CompiledFilter, type FilterNode, type LogRecord } from './eval/filter';
export { SAMPLE_ZONE, eachSampleHttpRequest, sampleHttpRequests } from './eval/sample';
export { mulberry32 } from './prng';
export { headOf, overSizeLimit, plural } from './text';
export { tidyMessage, wordList } from './messages';
export { shownDestination } from './rules/logpush/shownDestination';
export { asciiHost, WINDOWS_DEVICE_NAME } from './hostName';
export { checksumAddress, keccak256, keccakHex } from './keccak';
export { commonPrefix, commonSuffix } from './parse';
export { filterKeys, logRecordChecker, requestRecordChecker, type RecordChecker, type RecordProblems } from './eval/records';
export { compileExpression, compileRuleset, compileValue, RememberedMatches, rulesetLensCounts, type CompiledExpression, type CompiledValue, type RequestRecord, type RuleTally, type ValueTally } from './eval/rules';
export { eachSampleRequest, sampleRequests, toRequestRecord, hostileKind } from './eval/sample';
export { requestReader, rulesetFields, type LogLinesRead } from './eval/logRequests';

/** What the core does with a document: check it, assist in it, convert it. Stateless; every call takes what it needs. */
export interface LanguageService {
  /** One parse per document version; pass it to validate/complete/hover/lenses so that they share it. With the previous version's
   * parse, an edit inside one item of a large document re-parses that item only. */
  parse(text: string, options?: ParseOptions): ParsedDoc;
  /** Every problem of the document, capped at maxProblems; throws Cancelled when isCancelled turns true. */
  validate(text: string, kind: DocKind, options?: ValidateOptions): Problem[];
  /** The text with every unambiguous fix applied (a problem's only fix, marked preferred), pass after pass until none is left, and
   * the problems that remain: ESLint's --fix. */
  fixAll(text: string, kind: DocKind, options?: ValidateOptions): FixAllResult;
  /** The unambiguous fixes of one check that apply together (fixAll's first pass): how many, and their edits. */
  autoFixes: typeof autoFixes;
  complete(kind: DocKind, doc: ParsedDoc, offset: number, options?: CoreOptions): CompletionEntry[];
  hover(kind: DocKind, doc: ParsedDoc, offset: number, options?: CoreOptions): HoverInfo | undefined;
  signatureHelp(kind: DocKind, doc: ParsedDoc, offset: number, options?: CoreOptions): SignatureInfo | undefined;
  inlayHints(kind: DocKind, doc: ParsedDoc, range: Span, options?: CoreOptions): InlayHintInfo[];
  lenses(kind: DocKind, doc: ParsedDoc, options?: CoreOptions): Lens[];
  /** A gateway request document's (jsonrpc-request) send facts, as its lenses say them: its first syntax error, or the refused
   * methods. */
  sendInfo(doc: ParsedDoc): SendInfo;
  /** Smart selection: for each offset, the spans a user selects one after the other, innermost first, each containing the one
   * before (LSP textDocument/selectionRange). */
  selectionRanges(kind: DocKind, doc: ParsedDoc, offsets: readonly number[]): Span[][];
  /** What the grammars colour inside JSON strings (a rule's expression, a job's filter), in document order; with a range, the
   * tokens of the strings that reach into it (LSP textDocument/semanticTokens). */
  semanticTokens(kind: DocKind, doc: ParsedDoc, range?: Span): SemanticToken[];
  /** The same, one embedded string at a time (a caller may stop between two); a ruleset's are sorted by offset when all are in. */
  semanticTokenSteps(kind: DocKind, doc: ParsedDoc, range?: Span): Generator<SemanticToken[], void, undefined>;
  /** A filter's (or a job's filter's) use of the platform's limits, with its one-line text. */
  filterUsage(kind: DocKind, doc: ParsedDoc): (ReturnType<typeof filterUsageOf> & { text: string }) | undefined;
  filterToJobString: typeof filterToJobString;
  jobStringToFilter: typeof jobStringToFilter;
  toTerraform: typeof toTerraform;
  terraformAnswer: typeof terraformAnswer;
}

const service: LanguageService = {
  parse: parseDocument,
  validate: validateText,
  fixAll,
  autoFixes,
  complete,
  hover,
  signatureHelp,
  inlayHints,
  lenses,
  sendInfo,
  selectionRanges,
  semanticTokens,
  semanticTokenSteps,
  filterUsage(kind, doc) {
    const u = filterUsageOf(kind, doc);
    return u && { ...u, text: usageText(u) };
  },
  filterToJobString,
  jobStringToFilter,
  toTerraform,
  terraformAnswer,
};

export function getLanguageService(): LanguageService {
  return service;
}

/** Document kinds: which file names and `$schema` references make which kind. */
export const kinds = { isDocKind, detectKind, kindFromSchemaRef, patterns: KIND_PATTERNS };

/** The diagnostic code registry (severity, description, docs anchor). */
export const codes = { all: CODES, info: codeInfo, anchor: codeAnchor };

/** The shipped schemas as EdgeKit's ajv compiles them: every part the rules own (`"x-edgekit": "checked-by-rules"`) made `true`. */
export const schemas = { withoutRulesOwnedParts: forAjv };

/** Facts of the platform the core checks against, for the mock and the CLI. */
export const catalogue = {
  logpush: { datasets: DATASETS, datasetInfo, datasetFields, datasetScopes, jobScopes, jobScopeField },
  gateway: { supported: SUPPORTED_METHODS, unsupported: UNSUPPORTED_METHODS, limits: GATEWAY_LIMITS, checkParamValues, nearMethods },
  rulesets: { managedPhase: MANAGED_PHASE, managed: MANAGED_RULESETS, managedId: MANAGED_RULESET_ID, owaspId: OWASP_RULESET_ID, phases: PHASES, terminating: TERMINATING_ACTIONS },
  migration: { mapOldAction, mapSensitivity },
};
