import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The product docs name files of the repository; a file renamed or a path outside the repository
// (which a reader of a clone does not have) is a broken promise. This walks every path they name.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const TOP = /^(?:src|docs|scripts|test|bench)\//;

type Named = { readonly doc: string; readonly path: string; readonly resolved: string };

/** The paths a markdown text names: a backticked path starting at a top folder or `../`, and
 * every relative markdown link target. Placeholders (`…`, `*`, `<x>`, `{a,b}`) are not files. */
function namedPaths(doc: string, text: string): Named[] {
  const out: Named[] = [];
  const add = (raw: string, base: string) => {
    const path = raw.replace(/[#?].*$/, '').replace(/:\d+$/, '');
    if (path === '' || /[…*<>{}$]/.test(path)) return;
    out.push({ doc, path: raw, resolved: normalize(join(base, path)) });
  };
  // Fenced blocks are pictures and commands, not references.
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  for (const m of prose.matchAll(/`([^`\n]+)`/g)) {
    const first = (m[1] ?? '').trim().split(/\s+/)[0] ?? '';
    if (TOP.test(first) || first.startsWith('../')) add(first.replace(/[,.;)]+$/, ''), '.');
  }
  for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1] ?? '';
    if (/^[a-z][a-z+.-]*:/i.test(target) || target.startsWith('#')) continue;
    add(target, dirname(doc));
  }
  return out;
}

function problem(n: Named): string | undefined {
  const abs = resolve(ROOT, n.resolved);
  const rel = relative(ROOT, abs);
  if (rel.startsWith(`..${sep}`) || rel === '..') return `${n.doc}: ${n.path} is outside the repository`;
  if (!existsSync(abs)) return `${n.doc}: ${n.path} does not exist`;
  return undefined;
}

describe('paths named by the docs', () => {
  it('finds backticked paths and relative links, and resolves links from the doc', () => {
    const found = namedPaths(
      'docs/A.md',
      'see `src/a.ts:3`, `../shared/X.md`, `test/e2e` and `src/…`; [b](B.md) [c](../README.md#x) [w](https://x.y)',
    );
    expect(found.map((f) => f.resolved)).toEqual([
      'src/a.ts',
      normalize('../shared/X.md'),
      'test/e2e',
      normalize('docs/B.md'),
      'README.md',
    ]);
    expect(problem({ doc: 'README.md', path: '../x', resolved: '../x' })).toMatch(/outside/);
    expect(problem({ doc: 'README.md', path: 'src/nope.ts', resolved: 'src/nope.ts' })).toMatch(
      /does not exist/,
    );
  });

  it('README, CONTRIBUTING and docs/*.md name only files that exist in the repository', () => {
    const problems: string[] = [];
    let count = 0;
    for (const doc of DOCS) {
      for (const n of namedPaths(doc, readFileSync(join(ROOT, doc), 'utf8'))) {
        count++;
        const p = problem(n);
        if (p) problems.push(p);
      }
    }
    expect(count).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });
});
