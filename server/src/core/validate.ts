// validateText: syntax, then schema, then the kind's semantic rules. The same function serves the editor, the CLI and the mock.
import type { CoreOptions, DocKind, Fix, ParsedDoc, Problem, RuleContext, Span } from './types';
import { DEFAULT_OPTIONS } from './types';
import { parseDocument } from './parse';
import { SCHEMAS, validatorFor } from './schema/registry';
import { ajvProblems } from './schema/ajvProblems';
import { PLUGINS } from './plugins';
import { codeInfo } from './codes';
import { tidyMessage } from './messages';
import { applyEdits, overSizeLimit, utf8Length, withLineBreak } from './text';
import { eolAt } from './parse/syntaxErrors';
import { fixesPending, moveFix, withFixes } from './fix';

export class Cancelled extends Error {
  constructor() { super('cancelled'); }
}

export interface ValidateOptions extends Partial<CoreOptions> {
  /** Polled between phases; when it returns true, validation stops with Cancelled. */
  isCancelled?: () => boolean;
  /** A parse already made for this text (the LSP layer caches one per document version). */
  parsed?: ParsedDoc;
  /** How the limits' messages name them: the editor's settings by default; the CLI names its options (--max-problems, ...). */
  limitNames?: LimitNames;
}

export interface LimitNames { maxProblems: string; maxFileSizeKB: string }
const SETTING_NAMES: LimitNames = { maxProblems: 'edgekit.maxProblems', maxFileSizeKB: 'edgekit.maxFileSizeKB' };

export function makeContext(kind: DocKind, options: CoreOptions): RuleContext {
  return {
    kind,
    options,
    report: (code, message, at, extra) => ({ code, severity: codeInfo(code).severity, message, offset: at.offset, length: at.length, ...extra }),
  };
}

/** All problems of a document, deduplicated on (offset, code), sorted by offset, capped at maxProblems. */
export function validateText(text: string, kind: DocKind, opts: ValidateOptions = {}): Problem[] {
  const options: CoreOptions = { ...DEFAULT_OPTIONS, ...stripUndefined(opts) };
  const cancelled = opts.isCancelled ?? (() => false);
  if (overSizeLimit(text, options.maxFileSizeKB)) {
    // Rounded up: a file one byte over a 5120 KB limit is 5121 KB, not "5120 KB, over 5120 KB".
    const bytes = utf8Length(text);
    return [{
      code: 'limits/file-too-large', severity: 'information', offset: 0, length: 0,
      message: `The file is ${Math.ceil(bytes / 1024)} KB (${bytes.toLocaleString('en')} bytes of UTF-8), over ${(opts.limitNames ?? SETTING_NAMES).maxFileSizeKB} (${options.maxFileSizeKB} KB); it is not checked.`,
    }];
  }
  const doc = opts.parsed ?? parseDocument(text);
  const syntax = doc.syntax.map((p) => emptyOfKind(p, kind, text));
  // One stray quote and nothing else broken: the schema and the rules check the text its fix makes (what the user meant), their
  // problems moved back onto the text as written; jsonc-parser's reading of the broken line ("a "b" as "a ", then ", ") was checked
  // before, and a param count or a member's type failed on strings the user never wrote. Likewise one closer left out, whose fix
  // closes the container where the indentation says (else the next member is read into it: "Unknown property" there).
  const meant = meantText(doc, text);
  if (meant) {
    // What they say of the string the quote was in is said of the whole string as meant, not of a part the quote cut off: kept,
    // but for the string's own parse (a job's filter), which fails on the quote the fix escaped into it; and none of it when that
    // parse, or a rule's expression's, fails there (withoutCutString's `meant`).
    // A closer left out (syntax/unclosed-bracket) cuts no string: its related spans are its openers.
    const inner = checkValue(meant.doc, kind, options, cancelled);
    const cutString = doc.syntax.length === 1 && doc.syntax[0].code === 'syntax/unescaped-quote' ? doc.syntax[0].related?.[0] : undefined;
    return inDocumentBreaks(finish(withoutCutString([...syntax, ...inner.map(meant.back)], doc.syntax, cutString), options.maxProblems, opts.limitNames), text);
  }
  const problems: Problem[] = [...syntax, ...doc.duplicateKeys(), ...checkValue(doc, kind, options, cancelled, true)];
  return inDocumentBreaks(finish(withoutCutString(problems, doc.syntax), options.maxProblems, opts.limitNames), text);
}

/** The fixes' edits with the line break of the line they edit (eolAt): the starters and the rules write LF. A document without a
 * CR has nothing to change. */
function inDocumentBreaks(problems: Problem[], text: string): Problem[] {
  if (!text.includes('\r')) return problems;
  // Lazy fixes are moved unread (their edits may write a line break); the others only when one of their edits writes one
  const writesBreak = (f: Fix) => f.edits.some((e) => e.newText.includes('\n'));
  const inBreaks = (f: Fix): Fix => (writesBreak(f) ? moveFix(f, (e) => ({ ...e, newText: withLineBreak(e.newText, eolAt(text, e.offset)) })) : f);
  return problems.map((p) => (fixesPending(p) || p.fixes?.some(writesBreak) ? withFixes(p, {}, inBreaks) : p));
}

/** The schema's and the rules' problems of a parsed document (its duplicate keys too, unless told they are counted already). */
function checkValue(doc: ParsedDoc, kind: DocKind, options: CoreOptions, cancelled: () => boolean, keysCounted = false): Problem[] {
  const problems: Problem[] = keysCounted ? [] : [...doc.duplicateKeys()];
  if (cancelled()) throw new Cancelled();
  if (doc.value !== undefined) {
    const validate = validatorFor(kind);
    if (!validate(doc.value)) {
      // After a syntax error a member may be missing only because the parser lost it: absences are reported on clean documents only
      // (the rules do the same), so that the one syntax error is not followed by a cascade. Likewise a member after the error may
      // stand in another object only in the parser's reading (a "{" left open by a cut string): not called unknown there.
      const schemaProblems = ajvProblems(doc, validate.errors ?? [], SCHEMAS[kind]);
      const broken = doc.syntax.length ? Math.min(...doc.syntax.map((p) => p.offset)) : undefined;
      append(problems, broken === undefined ? schemaProblems
        : schemaProblems.filter((p) => p.code !== 'schema/required' && !(p.code === 'schema/unknown-property' && p.offset > broken)));
    }
    if (cancelled()) throw new Cancelled();
    const ctx = makeContext(kind, options);
    for (const rule of PLUGINS[kind].rules) {
      if (!rule.kinds.includes(kind)) continue;
      try {
        append(problems, rule.check(doc, ctx));
      } catch (err) {
        // A rule must never take the editor down; report the failure where the user can see it.
        problems.push({ code: 'schema/invalid', severity: 'error', offset: 0, length: 0, message: `Internal error in rule "${rule.id}": ${(err as Error).message}.` });
      }
      if (cancelled()) throw new Cancelled();
    }
  }
  return problems;
}

/**
 * When a document's only syntax problem is a stray quote (syntax/unescaped-quote) or a closer left out (syntax/unclosed-bracket)
 * whose first fix is one edit that makes valid JSON (a closer's, beside other syntax problems: one that leaves no more than those):
 * that text's parse, and how to move a problem found in it back onto the document's own text (its span, its fixes' edits, its related
 * spans). A span that ends inside the edit's new text ends where the edit's old text ended.
 */
function meantText(doc: ParsedDoc, text: string): { doc: ParsedDoc; back: (p: Problem) => Problem } | undefined {
  // A closer left out, beside other syntax problems (proved its own by the syntax check): the text as meant has those left, and is
  // checked as any broken text (no absence reported, no member called unknown past them); without it, the next member or request
  // read into the container was back.
  const broken = doc.syntax.length === 1 && doc.syntax[0].code === 'syntax/unescaped-quote' ? doc.syntax[0]
    : doc.syntax.find((p) => p.code === 'syntax/unclosed-bracket' || p.code === 'syntax/unopened-bracket');
  const fix = broken?.fixes?.find((f) => f.preferred) ?? broken?.fixes?.[0];
  if (!fix || fix.edits.length !== 1) return undefined;
  const meant = parseDocument(applyEdits(text, fix.edits));
  if (meant.syntax.length > doc.syntax.length - 1) return undefined;
  const e = fix.edits[0];
  const delta = e.newText.length - e.length;
  const at = (r: number) => (r <= e.offset ? r : r >= e.offset + e.newText.length ? r - delta : e.offset + e.length);
  const span = <T extends { offset: number; length: number }>(x: T): T => {
    const offset = at(x.offset);
    return { ...x, offset, length: at(x.offset + x.length) - offset };
  };
  return {
    doc: meant,
    back: (p) => withFixes(p, { ...span({ offset: p.offset, length: p.length }), ...(p.related ? { related: p.related.map(span) } : {}) }, (f) => moveFix(f, span)),
  };
}

/** An empty document's problem in the words of its kind, with the kind's fix that inserts a first entry (KindPlugin.starter). */
function emptyOfKind(p: Problem, kind: DocKind, text: string): Problem {
  const starter = PLUGINS[kind].starter;
  if (p.code !== 'syntax/empty-document' || !starter) return p;
  // The whole text replaced: whitespace alone is empty too.
  return { ...p, message: `The document is empty; expected ${starter.expected}.`, fixes: [{ title: starter.title, edits: [{ offset: 0, length: text.length, newText: starter.text }] }] };
}

/**
 * A string cut short by a quote inside it (syntax/unescaped-quote; its related span is the whole string as meant): what the rules
 * and the schema say of the part left in the string ("Expected a value after "contains"") is a consequence of the cut, not a
 * problem of its own; the quote is the one to show. The document's own, or one in a string checked as a document of its own (a
 * Logpush job's filter, whose problems come moved into the job's text). What that string's own parse says of the part left is
 * dropped too (a filter pasted whole with its quotes leaves "{": 'Expected "}" to close the object'); the document's own syntax
 * problems are kept.
 * meant: the string of the document's own quote when the rules checked the text its fix makes (meantText). What they say of that
 * string as meant is kept, but for its syntax problems (a job's filter's own parse); and when the string is read as a language of
 * its own and that reading fails there (a filter's parse, a rule's expression: the quote the fix escaped into it is a quote of that
 * language, which ends one of its strings), everything said in it is the cut's, as above. The other cuts are as above.
 */
function withoutCutString(problems: Problem[], syntax: readonly Problem[], meant?: Span): Problem[] {
  const cuts = problems.flatMap((p) => (p.code === 'syntax/unescaped-quote' && p.related?.length && !(meant && syntax.includes(p)) ? [p.related[0]] : []));
  const inside = (p: Problem, cut: Span) => p.offset >= cut.offset && p.offset < cut.offset + cut.length;
  const unread = meant !== undefined && problems.some((p) => !syntax.includes(p) && inside(p, meant) && readingFailed(p));
  if (!cuts.length && !meant) return problems;
  return problems.filter((p) => syntax.includes(p)
    || (!(meant && inside(p, meant) && (unread || p.code.startsWith('syntax/')))
      && !cuts.some((cut) => p.code !== 'syntax/unescaped-quote' && inside(p, cut))));
}

/** Whether a problem says that a string read as a language of its own (a job's filter, a rule's expression) does not parse. */
function readingFailed(p: Problem): boolean {
  return p.code === 'ruleset/expr-syntax' || (p.code.startsWith('syntax/') && p.code !== 'syntax/duplicate-key');
}

function finish(problems: Problem[], max: number, names?: LimitNames): Problem[] {
  const seen = new Set<string>();
  // A semantic rule that reports exactly the span a schema problem covers says it better (and usually carries a fix).
  const ruleSpans = new Set<string>();
  for (const p of problems) if (!p.code.startsWith('schema/') && !p.code.startsWith('syntax/')) ruleSpans.add(`${p.offset}:${p.length}`);
  const out: Problem[] = [];
  for (const p of problems) {
    const key = `${p.offset}:${p.code}`;
    if (seen.has(key)) continue;
    if (p.code.startsWith('schema/') && ruleSpans.has(`${p.offset}:${p.length}`)) continue;
    seen.add(key);
    // Rules quote names and values as they are; keep every message one short printable line whatever the document holds.
    const message = tidyMessage(p.message);
    const related = p.related?.map((r) => ({ ...r, message: tidyMessage(r.message) }));
    out.push(message === p.message && !p.related ? p : withFixes(p, { message, ...(related ? { related } : {}) }));
  }
  out.sort((a, b) => a.offset - b.offset || a.length - b.length);
  return capProblems(out, max, names);
}

/** At most max problems of a checked list, then one limits/too-many-problems counting the rest. */
export function capProblems(out: Problem[], max: number, names: LimitNames = SETTING_NAMES): Problem[] {
  if (out.length > max) {
    const rest = out.length - max;
    out.length = max;
    out.push({ code: 'limits/too-many-problems', severity: 'information', offset: 0, length: 0, message: `${rest} more ${rest === 1 ? 'problem is' : 'problems are'} not shown (${names.maxProblems} is ${max}).` });
  }
  return out;
}

/** dst.push(...src) without spreading: a 50 MB batch yields more problems than a call can take arguments. */
function append<T>(dst: T[], src: readonly T[]): void {
  for (const x of src) dst.push(x);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const r: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && k !== 'isCancelled' && k !== 'parsed') (r as Record<string, unknown>)[k] = v;
  return r;
}
