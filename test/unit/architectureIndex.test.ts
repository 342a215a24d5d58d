// docs/architecture.md grows a section at a time, newest last (140 sections by 2026-11-28); its "Contents" groups them by area so
// that a reader finds the decisions about one part of the product. Held here: every `## ` section is listed there once, under an
// area, by a link that reaches it (the anchor GitHub and VS Code's preview make of the heading), and nothing else is listed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const FILE = path.resolve(__dirname, '../../docs/architecture.md');

/** GitHub's anchor of a heading (github-slugger): lower case, punctuation dropped, spaces as hyphens, a repeat numbered. */
export function anchors(headings: string[]): string[] {
  const seen = new Map<string, number>();
  return headings.map((h) => {
    const base = h.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n ? `${base}-${n}` : base;
  });
}

test('anchors are made as GitHub makes them', () => {
  assert.deepEqual(anchors(['The core contract (`server/src/core/types.ts`)', 'Cancellation, and JSON numbers past 2^53 (2026-11-26)', 'A', 'A']),
    ['the-core-contract-serversrccoretypests', 'cancellation-and-json-numbers-past-253-2026-11-26', 'a', 'a-1']);
});

test('docs/architecture.md lists each of its sections once in its Contents, by a link that reaches it', () => {
  const text = fs.readFileSync(FILE, 'utf8');
  const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  const slugs = anchors(headings);
  const start = text.indexOf('\n## Contents\n');
  assert.ok(start >= 0, 'docs/architecture.md has a "## Contents" section');
  const end = text.indexOf('\n## ', start + 1);
  const contents = text.slice(start, end);
  const links = [...contents.matchAll(/^ {2}- \[(.+)\]\(#([^)]+)\)$/gm)].map((m) => ({ title: m[1], slug: m[2] }));
  const sections = headings.map((h, i) => ({ title: h, slug: slugs[i] })).filter((s) => s.title !== 'Contents');
  assert.ok(sections.length >= 100 && links.length >= 100, `${sections.length} sections, ${links.length} links`);
  for (const s of sections) {
    const listed = links.filter((l) => l.slug === s.slug);
    assert.equal(listed.length, 1, `the section "## ${s.title}" is listed ${listed.length} times in the Contents of docs/architecture.md (add a line "  - [${s.title}](#${s.slug})" under its area)`);
    assert.equal(listed[0].title, s.title, `the Contents' link to #${s.slug} is titled "${listed[0].title}", the section "${s.title}"`);
  }
  for (const l of links) assert.ok(sections.some((s) => s.slug === l.slug), `the Contents lists #${l.slug} ("${l.title}"), which is no section of docs/architecture.md`);
  // Each link sits under an area's bold name
  assert.match(contents, /^- \*\*[^*]+\*\*$/m);
});
