// A `matches` regex is Rust's regex syntax (the platform's engine); the checker and the evaluator run it on RE2 (re2js), whose syntax
// Rust's descends from. What Rust writes differently is rewritten here first, so that both accept what Rust accepts:
// - the inline flags u (Unicode, on by default in Rust; RE2's classes such as \p{Greek} are Unicode already) and R (CRLF mode),
//   which RE2 does not know, are dropped; x (verbose) is applied here: whitespace is insignificant everywhere, character classes
//   included, and "#" starts a comment to the end of the line (rust-lang/regex#660);
// - \u007F, \u{7F}, \U0000007F and \U{7F} become RE2's \x{7F}.
// Anything else RE2 refuses is an error (look-around, backreferences, \Z, \e... which Rust refuses as well).
import { RE2JS } from 're2js';

const FLAG_GROUP = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/;
const UNICODE_ESCAPE = /^\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|U\{([0-9a-fA-F]{1,8})\}|U([0-9a-fA-F]{8}))/;

/** The pattern in RE2's syntax (see above); a pattern that is invalid stays invalid. */
export function rustToRe2(pattern: string): string {
  if (!/\(\?[a-zA-Z-]|\\[uU]/.test(pattern)) return pattern; // nothing to rewrite (most patterns)
  let out = '';
  let x = false;
  const groups: boolean[] = []; // the x flag to restore at each open group's ")"
  let classDepth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const u = UNICODE_ESCAPE.exec(pattern.slice(i, i + 12));
      if (u) { out += `\\x{${u[1] ?? u[2] ?? u[3] ?? u[4]}}`; i += u[0].length - 1; continue; }
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (x && /\s/.test(c)) continue;
    if (x && c === '#') { while (i + 1 < pattern.length && pattern[i + 1] !== '\n') i++; continue; }
    if (classDepth > 0) {
      if (c === '[' && pattern[i + 1] === ':') {
        const end = pattern.indexOf(':]', i + 2);
        if (end > 0) { out += pattern.slice(i, end + 2); i = end + 1; continue; }
      }
      if (c === '[') classDepth++;
      else if (c === ']') classDepth--;
      out += c;
      continue;
    }
    if (c === '[') {
      classDepth = 1;
      out += c;
      // A "]" first in the class (after an optional "^") is a literal
      if (pattern[i + 1] === '^') { out += '^'; i++; }
      if (pattern[i + 1] === ']') { out += ']'; i++; }
      continue;
    }
    if (c === '(') {
      const f = FLAG_GROUP.exec(pattern.slice(i));
      if (f) {
        const [all, on, off = '', close] = f;
        const nx: boolean = on.includes('x') ? true : off.includes('x') ? false : x;
        const keepOn = on.replace(/[uRx]/g, ''), keepOff = off.replace(/[uRx]/g, '');
        const flags = keepOn + (keepOff ? `-${keepOff}` : '');
        if (close === ':') { groups.push(x); out += `(?${flags}:`; } else if (flags) out += `(?${flags})`;
        x = nx;
        i += all.length - 1;
        continue;
      }
      groups.push(x);
      out += c;
      continue;
    }
    if (c === ')') x = groups.pop() ?? x;
    out += c;
  }
  return out;
}

/** The regex compiled on RE2, after rustToRe2; throws RE2's error for one it refuses. */
export function compileRustRegex(pattern: string): RE2JS {
  return RE2JS.compile(rustToRe2(pattern));
}
