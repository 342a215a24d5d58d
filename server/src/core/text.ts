// Small text helpers shared by the areas.

/** A count with its noun in proper English: "1 error", "2 errors", "0 batches" (many: the plural when it is not one + "s"). Messages
 * never write "error(s)" (test/unit/plurals.test.ts). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Text written with LF line breaks (a snippet, a starter, a fix), with `eol` instead: a CRLF document gets no lone LF from an edit
 * of EdgeKit's (VS Code normalises what it inserts; other clients insert the text as sent). A "\r\n" already there is kept. */
export function withLineBreak(text: string, eol: string): string {
  return eol === '\n' || !text.includes('\n') ? text : text.replace(/\r?\n/g, eol);
}

const NON_ASCII = /[^\x00-\x7f]/;

/** UTF-8 length of a string, as the platform counts its limits (filters ~1000 bytes, expressions 4096 bytes). */
export function utf8Length(s: string): number {
  // Most filters and expressions are ASCII: one byte a character, and the regex finds that four times faster than the loop.
  if (!NON_ASCII.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

/**
 * Whether text is over a size limit in KB (1024 bytes of UTF-8: a file's size on disk, what edgekit.maxFileSizeKB and the CLI's
 * --max-file-size name). Without counting when the UTF-16 length settles it: at least one byte a code unit, at most three.
 */
export function overSizeLimit(text: string, kb: number): boolean {
  const limit = kb * 1024;
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  return utf8Length(text) > limit;
}

/** Characters a JSON string literal writes as themselves, one UTF-8 byte each (what the fast path of jsonStringBytes looks for). */
const NOT_PLAIN_IN_JSON = /["\\\u0000-\u001f\u0080-\uffff]/;

/** UTF-8 bytes of JSON.stringify(s): quotes, escapes (\" \\ \n..., \u00XX for other control characters and for a lone surrogate). */
function jsonStringBytes(s: string): number {
  if (!NOT_PLAIN_IN_JSON.test(s)) return s.length + 2;
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) n += 2;
    else if (c < 0x20) n += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    else if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { n += 4; i++; }
    else if (c >= 0xd800 && c <= 0xdfff) n += 6;
    else n += 3;
  }
  return n;
}

/**
 * UTF-8 bytes of JSON.stringify(value) (compact), counted without building the string (a 10 KB filter's serialization was a quarter
 * of its check), for what JSON.parse gives: objects, arrays, strings, numbers, booleans and null. 0 for undefined, as for ''.
 */
export function compactJsonBytes(value: unknown): number {
  switch (typeof value) {
    case 'string': return jsonStringBytes(value);
    case 'number': return Number.isFinite(value) ? String(value).length : 4; // JSON.stringify(n) is String(n), or null
    case 'boolean': return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      if (Array.isArray(value)) {
        let n = 2 + Math.max(0, value.length - 1);
        for (const item of value) n += item === undefined ? 4 : compactJsonBytes(item);
        return n;
      }
      let n = 2;
      let members = 0;
      for (const key of Object.keys(value)) {
        const v = (value as Record<string, unknown>)[key];
        if (v === undefined) continue;
        n += (members++ ? 1 : 0) + jsonStringBytes(key) + 1 + compactJsonBytes(v);
      }
      return n;
    }
    default: return 0;
  }
}

/** The first n UTF-16 code units of s, one less when the cut would split a surrogate pair: a message that quotes the start of a
 * user's text never holds half an emoji (a lone surrogate, which a message shows as "\ud83d" or a replacement character). */
export function headOf(s: string, n: number): string {
  if (s.length <= n) return s;
  if (n <= 0) return '';
  const c = s.charCodeAt(n - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(n) & 0xfc00) === 0xdc00 ? n - 1 : n);
}

/** A user's string as a message or a button quotes it: JSON-quoted (escapes for control characters and lone surrogates), cut
 * after 40 characters with "…". */
export function quoteShort(s: string): string {
  return JSON.stringify(s.length > 40 ? headOf(s, 40) + '…' : s);
}

/** The text with its first letter in upper case, for a message that starts with a name ("field …" → "Field …"). */
export function cap(s: string): string { return s.charAt(0).toUpperCase() + s.slice(1); }

/** Text as an LSP snippet inserts it literally, outside a placeholder or as one's default: "$", "}" and "\\" escaped with "\\"
 * ("$schema" unescaped is a snippet variable). */
export function snippetText(s: string): string { return s.replace(/[$}\\]/g, '\\$&'); }

/** A signature's one-line label (hover, completion detail) and each parameter's [start, end) in it (signature help). */
export interface SignatureLabel { label: string; parameters: [number, number][] }

/** open + the parameters joined by ", " + close, with where each parameter sits: what each catalogue's signature is built with. */
export function signatureLabel(open: string, params: readonly string[], close: string): SignatureLabel {
  let label = open;
  const parameters: [number, number][] = params.map((p, i) => {
    if (i > 0) label += ', ';
    label += p;
    return [label.length - p.length, label.length];
  });
  return { label: label + close, parameters };
}

// ignoreBOM: a leading byte order mark is a character of the text (U+FEFF), as in the platform's strings; TextDecoder drops it by default.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Bytes as EdgeKit's text (the platform's strings are bytes): UTF-8 sequences as their characters, so that they equal the same text
 * written plainly; a byte that starts no valid sequence as the one character of its value. The evaluator's decoded values
 * (url_decode, decode_base64) and the rules language's \xHH / \NNN escapes are read with it.
 */
/** The bytes when bytesText cannot stand for them (a byte that starts no valid UTF-8 sequence: "\xe0" reads as "à", whose UTF-8 is
 * C3 A0), else undefined: a literal's exact bytes, which the evaluator compares instead of its text. */
export function lossyBytes(bytes: Uint8Array): Uint8Array | undefined {
  try { strictUtf8.decode(bytes); return undefined; } catch { return bytes; }
}

export function bytesText(bytes: Uint8Array): string {
  try { return strictUtf8.decode(bytes); } catch { /* not all UTF-8: sequence by sequence */ }
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 1;
    if (n > 1 && i + n <= bytes.length) {
      try { out += strictUtf8.decode(bytes.subarray(i, i + n)); i += n; continue; } catch { /* invalid: the byte alone */ }
    }
    out += String.fromCharCode(b);
    i++;
  }
  return out;
}

/** Edits that do not overlap, in any order: the text between them and their new text, joined once (one splice per edit copied the
 * whole text each time: minutes for the 40,000 fixes of a 2 MB batch). */
export function applyEdits(text: string, edits: readonly { offset: number; length: number; newText: string }[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const e of [...edits].sort((a, b) => a.offset - b.offset)) {
    parts.push(text.slice(at, e.offset), e.newText);
    at = e.offset + e.length;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * The edits that remove the items `removed` (indexes) of a list of `count` items whose spans `span(i)` gives (in order; a JSON
 * array's elements, the names of a comma-separated list), each with one separator: a run of removed items goes with the separator
 * before it (after the item it follows), a run at the start with the one after it; all of them, the text from the first to the last.
 * One edit per run, so the edits never overlap. Only the removed items and their neighbours are asked for (a span can cost a
 * locate).
 */
export function itemRemovals(count: number, span: (i: number) => { offset: number; length: number }, removed: ReadonlySet<number>): { offset: number; length: number; newText: string }[] {
  const out: { offset: number; length: number; newText: string }[] = [];
  const end = (i: number): number => { const s = span(i); return s.offset + s.length; };
  let lastRun = -1;
  for (const a0 of [...removed].filter((i) => i >= 0 && i < count).sort((x, y) => x - y)) {
    if (a0 <= lastRun) continue;
    let b = a0;
    while (b + 1 < count && removed.has(b + 1)) b++;
    const from = a0 > 0 ? end(a0 - 1) : span(a0).offset;
    const to = a0 > 0 || b === count - 1 ? end(b) : span(b + 1).offset;
    out.push({ offset: from, length: to - from, newText: '' });
    lastRun = b;
  }
  return out;
}

/** A schema's plain text (title, description, enumDescriptions) as markdown: what markdown reads as syntax is escaped, so
 * "<scheme>://<address>" is not taken for HTML and eth_call_x not for emphasis (vscode-json-languageservice's jsonHover.ts escapes
 * every punctuation character; only those that can change the rendering are escaped here, so the markdown stays readable: inline
 * marks and entity references (&lt;) everywhere, and a block marker or a setext underline at the start of a line). */
export function plainToMarkdown(text: string): string {
  return text
    .replace(/[\\`*_[\]<>|~&]/g, '\\$&')
    .replace(/^(\s*)([#+-]|\d+[.)])(?=\s|$)/gm, (_m, sp: string, mark: string) => `${sp}${mark.replace(/[#+\-.)]/, '\\$&')}`)
    // A line of = or - under a line of text is a setext heading's underline ("---" a rule when alone).
    .replace(/^(\s*)([=-])(?=[\s=-]*$)/gm, '$1\\$2');
}
