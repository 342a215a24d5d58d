// Fixes whose edits are worked out when they are read, not when the problem is found. A check runs on every keystroke, and a fix's
// edits are wanted only when the user asks for code actions (or Fix all, or `lint --fix`): a fix whose edits need work the check
// does not otherwise do (the positions of a filter's members, from jsonc-parser's tree) is made lazy, and every step that moves a
// problem's fixes on their way (into a job's filter string, onto a repaired text, into the document's line breaks) keeps it lazy.
// Reading `edits` works them out once; a lazy fix is an ordinary Fix to everything that reads it (its `edits` is an own, enumerable
// property, so a spread, JSON.stringify and a structured clone see the edits as they see any other fix's).
import type { Edit, Fix } from './types';

/** The lazy fixes whose edits are not worked out yet, with how to work them out. */
const pending = new WeakMap<Fix, () => Edit[]>();

/** A fix with its title now and its edits worked out the first time they are read. */
export function lazyFix(title: string, make: () => Edit[], preferred?: boolean): Fix {
  const fix = { title, ...(preferred === undefined ? {} : { preferred }) } as Fix;
  let edits: Edit[] | undefined;
  pending.set(fix, make);
  Object.defineProperty(fix, 'edits', {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!edits) {
        edits = make();
        pending.delete(fix);
      }
      return edits;
    },
  });
  return fix;
}

/** Whether a fix's edits are still to be worked out (tests, and the steps below). */
export function editsPending(fix: Fix): boolean {
  return pending.has(fix);
}

/**
 * The fix with each edit moved by `move` (onto another text, into a string, into another line break): lazy when the fix is, so that
 * moving it does not work its edits out.
 */
export function moveFix(fix: Fix, move: (e: Edit) => Edit): Fix {
  if (pending.has(fix)) return lazyFix(fix.title, () => fix.edits.map(move), fix.preferred);
  return { ...fix, edits: fix.edits.map(move) };
}
