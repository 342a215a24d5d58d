// Tokenizer of the rules language (wirefilter). Offsets are indices into the DECODED expression string; the caller maps them to the
// document with core/jsonString.ts.

export type TokenKind = 'ident' | 'string' | 'int' | 'ip' | 'cidr' | 'list' | 'punct' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Source text of the token (raw, as written in the expression). */
  text: string;
  offset: number;
  length: number;
  /** Decoded string value (string), integer value (int). */
  value?: string | number;
  /** For ip/cidr: the address family. */
  family?: 4 | 6;
  /** A raw string r"..." / r#"..."#. */
  raw?: boolean;
}

export interface LexProblem {
  code: 'ruleset/expr-syntax' | 'ruleset/expr-invalid-ip';
  message: string;
  offset: number;
  length: number;
}

const PUNCT = ['==', '!=', '<=', '>=', '&&', '||', '^^', '..', '<', '>', '~', '!', '(', ')', '{', '}', '[', ']', ',', '*', '==='];
PUNCT.sort((a, b) => b.length - a.length);

const IDENT_START = /[A-Za-z_]/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*/;
const HEXCOLON = /^[0-9A-Fa-f:][0-9A-Fa-f:.]*(?:\/\d+)?/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d+))?/;

export function tokenize(src: string): { tokens: Token[]; problems: LexProblem[] } {
  const tokens: Token[] = [];
  const problems: LexProblem[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') { i++; continue; }
    // raw strings r"..." and r#"..."#
    if (c === 'r' && (src[i + 1] === '"' || src[i + 1] === '#')) {
      let j = i + 1;
      let hashes = 0;
      while (src[j] === '#') { hashes++; j++; }
      if (src[j] === '"') {
        const close = '"' + '#'.repeat(hashes);
        const end = src.indexOf(close, j + 1);
        if (end < 0) {
          problems.push({ code: 'ruleset/expr-syntax', message: `Unterminated raw string; expected ${JSON.stringify(close)} to close it.`, offset: i, length: n - i });
          tokens.push({ kind: 'string', text: src.slice(i), offset: i, length: n - i, value: src.slice(j + 1), raw: true });
          i = n;
        } else {
          const stop = end + close.length;
          tokens.push({ kind: 'string', text: src.slice(i, stop), offset: i, length: stop - i, value: src.slice(j + 1, end), raw: true });
          i = stop;
        }
        continue;
      }
    }
    if (c === '"') {
      const start = i;
      let value = '';
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const ch = src[j];
        if (ch === '"') { closed = true; j++; break; }
        if (ch === '\\') {
          const e = src[j + 1];
          if (e === '"' || e === '\\') { value += e; j += 2; continue; }
          if (e === 'x' && /^[0-9A-Fa-f]{2}$/.test(src.slice(j + 2, j + 4))) { value += String.fromCharCode(parseInt(src.slice(j + 2, j + 4), 16)); j += 4; continue; }
          const shown = e === undefined ? '\\' : `\\${e}`;
          problems.push({ code: 'ruleset/expr-syntax', offset: j, length: shown.length,
            message: `Invalid escape "${shown}" in a string; only \\" \\\\ and \\xHH are allowed, so write "\\${shown}" or use a raw string r"...".` });
          value += e ?? '';
          j += 2;
          continue;
        }
        value += ch;
        j++;
      }
      if (!closed) problems.push({ code: 'ruleset/expr-syntax', message: 'Unterminated string; expected a closing double quote.', offset: start, length: n - start });
      tokens.push({ kind: 'string', text: src.slice(start, j), offset: start, length: j - start, value });
      i = j;
      continue;
    }
    if (c === '$' && IDENT_START.test(src[i + 1] ?? '')) {
      const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(src.slice(i + 1))!;
      tokens.push({ kind: 'list', text: '$' + m[0], offset: i, length: m[0].length + 1, value: m[0] });
      i += m[0].length + 1;
      continue;
    }
    // IPv6 (a run of hex digits, colons and dots that contains a colon), IPv4, integers
    if (/[0-9A-Fa-f:]/.test(c) || (c === '-' && /\d/.test(src[i + 1] ?? ''))) {
      const hex = HEXCOLON.exec(src.slice(i));
      if (hex && hex[0].includes(':') && (hex[0].match(/:/g)!.length >= 2)) {
        let text = hex[0];
        const range = text.indexOf('..');
        if (range >= 0) text = text.slice(0, range);
        tokens.push(ipToken(text, i, 6, problems));
        i += text.length;
        continue;
      }
      if (/[0-9-]/.test(c)) {
        const v4 = IPV4.exec(src.slice(i));
        if (v4 && c !== '-') {
          tokens.push(ipToken(v4[0], i, 4, problems));
          i += v4[0].length;
          continue;
        }
        const num = /^-?\d+/.exec(src.slice(i))!;
        tokens.push({ kind: 'int', text: num[0], offset: i, length: num[0].length, value: Number(num[0]) });
        i += num[0].length;
        continue;
      }
    }
    if (IDENT_START.test(c)) {
      const m = IDENT.exec(src.slice(i))!;
      tokens.push({ kind: 'ident', text: m[0], offset: i, length: m[0].length });
      i += m[0].length;
      continue;
    }
    const p = PUNCT.find((q) => src.startsWith(q, i));
    if (p && p !== '===') {
      tokens.push({ kind: 'punct', text: p, offset: i, length: p.length });
      i += p.length;
      continue;
    }
    const shown = p ?? (src.codePointAt(i)! > 0xffff ? src.slice(i, i + 2) : c);
    problems.push({ code: 'ruleset/expr-syntax', message: p === '===' ? 'Unexpected "==="; use "==" or "eq".' : c === '=' ? 'Unexpected "="; use "==" or "eq" to compare.' : `Unexpected character "${shown}".`, offset: i, length: shown.length });
    i += shown.length;
  }
  tokens.push({ kind: 'eof', text: '', offset: n, length: 0 });
  return { tokens, problems };
}

function ipToken(text: string, offset: number, family: 4 | 6, problems: LexProblem[]): Token {
  const [addr, prefix] = text.split('/');
  const ok = family === 4 ? validIpv4(addr) : validIpv6(addr);
  if (!ok) problems.push({ code: 'ruleset/expr-invalid-ip', message: `"${addr}" is not a valid IPv${family} address.`, offset, length: addr.length });
  const kind: TokenKind = prefix === undefined ? 'ip' : 'cidr';
  if (prefix !== undefined) {
    const max = family === 4 ? 32 : 128;
    if (prefix === '' || Number(prefix) > max) {
      problems.push({ code: 'ruleset/expr-invalid-ip', message: `The prefix length "/${prefix}" of "${text}" must be between 0 and ${max}.`, offset: offset + addr.length, length: prefix.length + 1 });
    }
  }
  return { kind, text, offset, length: text.length, family };
}

export function validIpv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

export function validIpv6(s: string): boolean {
  let head = s;
  let tailGroups = 0;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    if (!validIpv4(s.slice(lastColon + 1))) return false;
    head = s.slice(0, lastColon + 1) + '0:0';
    tailGroups = 0;
  }
  const dbl = head.split('::');
  if (dbl.length > 2) return false;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(dbl[0]);
  const right = dbl.length === 2 ? groups(dbl[1]) : [];
  const all = [...left, ...right];
  if (!all.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return false;
  const count = all.length + tailGroups;
  return dbl.length === 2 ? count <= 7 : count === 8;
}
