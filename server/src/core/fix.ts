// Problems whose fixes are worked out when they are read, not when the problem is found. A check runs on every keystroke, and a
// problem's fixes are wanted only when the user asks for code actions (or Fix all, or `lint --fix`): a rule whose fixes need work the
// check does not otherwise do (the places of a filter's members, from jsonc-parser's tree) reports its problem with lazy fixes, and
// every step that moves a problem on its way (into a job's filter string, back from a repaired text, into the document's line
// breaks, the message tidied) keeps them lazy. Reading `fixes` works them out once; to everything that reads it, such a problem is an
// ordinary Problem (`fixes` is an own, enumerable property, so a spread, JSON.stringify and a structured clone see the fixes as they
// see any other problem's; a spread works them out, which is why the steps below use withFixes).
import type { Edit, Fix, Problem } from './types';

/** The problems whose fixes are not worked out yet, with how to work them out. */
const pending = new WeakMap<Problem, () => Fix[] | undefined>();

/** The problems with fixes still to be worked out whose rule says none of them will be preferred: none is an auto-fix (Fix all
 * applies a problem's only fix when it is preferred), so Fix all, lint's count of fixable problems and `lint --fix` need not work
 * them out (rv27: they did, on every save with editor.codeActionsOnSave). */
const nonePreferred = new WeakSet<Problem>();

/** The problem (changed in place, and returned), its fixes worked out by `make` the first time they are read. `nonePreferred`: the
 * rule's word that no fix `make` gives is preferred. */
export function lazyFixes(p: Problem, make: () => Fix[] | undefined, opts: { nonePreferred?: boolean } = {}): Problem {
  let fixes: Fix[] | undefined;
  let made = false;
  pending.set(p, make);
  if (opts.nonePreferred) nonePreferred.add(p);
  Object.defineProperty(p, 'fixes', {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!made) {
        fixes = make();
        made = true;
        pending.delete(p);
      }
      return fixes;
    },
  });
  return p;
}

/** Whether a problem's fixes are still to be worked out (tests, and the steps below). */
export function fixesPending(p: Problem): boolean {
  return pending.has(p);
}

/** Whether a problem surely has no auto-fix without its fixes being read: still to be worked out, and none of them preferred. */
export function noAutoFixUnread(p: Problem): boolean {
  return pending.has(p) && nonePreferred.has(p);
}

/**
 * A copy of the problem with `changes`, and each of its fixes changed by `move` (its edits moved onto another text, into a string,
 * into another line break): lazy when the problem's fixes are, so that moving the problem does not work them out.
 */
export function withFixes(p: Problem, changes: Partial<Problem>, move?: (f: Fix) => Fix): Problem {
  const rest = {} as Problem;
  for (const k of Object.keys(p) as (keyof Problem)[]) if (k !== 'fixes') (rest as unknown as Record<string, unknown>)[k] = p[k]; // not read
  if ('fixes' in changes) return { ...rest, ...changes };
  if (pending.has(p)) return lazyFixes({ ...rest, ...changes }, () => (move ? p.fixes?.map(move) : p.fixes), { nonePreferred: nonePreferred.has(p) });
  return { ...rest, ...changes, ...(p.fixes ? { fixes: move ? p.fixes.map(move) : p.fixes } : {}) };
}

/** The fix with each of its edits moved by `move`. */
export function moveFix(fix: Fix, move: (e: Edit) => Edit): Fix {
  return { ...fix, edits: fix.edits.map(move) };
}
