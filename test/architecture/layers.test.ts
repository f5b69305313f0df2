/**
 * The layers point down (docs/ARCHITECTURE.md): ui → store → services → api/domain; headless →
 * services; both front-ends import present/. The graph is scripts/import-graph.mjs's, read at test
 * time, so `node scripts/import-graph.mjs` prints what this test judges.
 *
 * What remains is listed with who is removing it (issue #25). The lists can only shrink: an import
 * or circle not listed fails, and so does a listed one that no longer exists.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { graph, layerOf } from '../../scripts/import-graph.mjs';

/** Imports that point up or across, as "from -> to". */
const REMAINING_UP: Readonly<Record<string, string>> = {};

/** Circles of files at run time, each as its files joined by ", ". */
const REMAINING_CIRCLES: Readonly<Record<string, string>> = {};

const g = graph(join(__dirname, '../..'));
const up = g.up.map((u) => u.replace(/ \([^)]*\)$/, ''));
const circles = g.circles.map((c) => c.join(', '));

describe('the import graph', () => {
  it('is read: every file of src/ has a layer', () => {
    expect(g.files).toBeGreaterThan(150);
    expect(Object.keys(g.arrows)).toContain('ui>store');
    expect(layerOf('src/present/tables.ts')).toBe('present');
    expect(layerOf('src/app/run.tsx')).toBe('start');
  });

  it('has no import that points up or across, beyond the shrinking list', () => {
    expect(up.filter((u) => !(u in REMAINING_UP))).toEqual([]);
  });

  it('has no circle at run time, beyond the shrinking list', () => {
    expect(circles.filter((c) => !(c in REMAINING_CIRCLES))).toEqual([]);
  });

  it('has no circle through types that crosses a layer', () => {
    const crossing = g.typeCircles.filter((c) => new Set(c.map(layerOf)).size > 1);
    expect(crossing).toEqual([]);
  });

  it('lists only what still exists (fixed: take it off the list)', () => {
    expect(Object.keys(REMAINING_UP).filter((u) => !up.includes(u))).toEqual([]);
    expect(Object.keys(REMAINING_CIRCLES).filter((c) => !circles.includes(c))).toEqual([]);
  });
});
