/**
 * The registry's shape: imports point one way (the key table imports its areas, the areas import
 * the helpers, never the table), every id an area names in text is in the table, and the palette's
 * commands are the command line's with the same options.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS as KEYS } from '../../src/commands/keymap';
import { PALETTE } from '../../src/commands/palette';
import { COMMANDS as CLI, COMMAND_NAMES } from '../../src/commands/spec';

const SRC = new URL('../../src/', import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(join(SRC, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(SRC, dir, f));

/** Imports that run (not `import type`), resolved to files under src/. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms)) {
    const base = resolve(dirname(file), m[1]!);
    for (const ext of ['.ts', '.tsx', '/index.ts'])
      try {
        readFileSync(base + ext);
        out.push(base + ext);
        break;
      } catch {}
  }
  return out;
}

/** A circle of runtime imports among `nodes`, if any (as a list of files). */
function findCircle(nodes: readonly string[]): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string): string[] | null => {
    if (state.get(f) === 'done') return null;
    if (state.get(f) === 'open') return [...stack.slice(stack.indexOf(f)), f];
    state.set(f, 'open');
    stack.push(f);
    for (const g of runtimeImports(f)) {
      const found = visit(g);
      if (found) return found;
    }
    stack.pop();
    state.set(f, 'done');
    return null;
  };
  for (const f of nodes) {
    const found = visit(f);
    if (found) return found.map((x) => x.replace(SRC, ''));
  }
  return null;
}

describe('the command registry', () => {
  it('has no circle of imports through the commands, the keys or the store', () => {
    expect(findCircle([...files('commands'), ...files('keys')])).toBeNull();
  });

  it('the area files never import the table (keymap.ts)', () => {
    for (const f of files('commands/areas'))
      for (const g of runtimeImports(f)) expect(g, f).not.toMatch(/commands\/keymap\.ts$/);
  });

  it('commands/ imports neither the screens nor the command line’s front-end', () => {
    for (const f of files('commands'))
      for (const g of runtimeImports(f)) expect(g.replace(SRC, ''), f).not.toMatch(/^(ui|headless|app)\//);
  });

  it('every id an area names in text, and every palette key, is a command of the table', () => {
    const ids = new Set(KEYS.map((c) => c.id));
    let named = 0;
    for (const f of files('commands'))
      for (const m of readFileSync(f, 'utf8').matchAll(
        /(?:keyHintText|keyNamed|commandById|runKey)\((?:s, )?'([a-z]+\.[a-zA-Z]+)'/g,
      ))
        expect(ids.has(m[1]! as never), `${m[1]} in ${f}`).toBe(++named > 0);
    for (const p of PALETTE) if (p.key) expect(ids.has(p.key as never), p.key).toBe(true);
    // The areas name other commands' keys in their sentences (read-only hints, the sort's O, …).
    expect(named).toBeGreaterThan(5);
  });

  it('a palette command of a command line name takes that command’s options, less the script-only ones', () => {
    const shared = PALETTE.filter((p) => (COMMAND_NAMES as readonly string[]).includes(p.name));
    expect(shared.map((p) => p.name).sort()).toEqual(
      COMMAND_NAMES.filter((n) => CLI[n].palette)
        .slice()
        .sort(),
    );
    for (const p of shared) expect(p.options).toBe(CLI[p.name as keyof typeof CLI].options);
  });
});
