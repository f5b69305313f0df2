/**
 * A slice writes only its own fields (STYLE.md, "Store"): each slice file's `set(…)` may name only
 * the fields its own `…Slice` interface declares. An effect across slices is a named action (in
 * store/app-store.ts, or the owner's action called by name). Read from the source with the
 * TypeScript parser, so a new `set({ other: … })` fails here naming the slice and the field.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';

const STORE = join(__dirname, '../../src/store');

/** Every slice file: a `create…Slice` beside its `…Slice` interface. */
function sliceFiles(dir = STORE): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sliceFiles(p));
    else if (/-slice\.ts$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

interface SliceWrites {
  readonly slice: string;
  readonly owns: ReadonlySet<string>;
  /** Each key passed to `set(…)`, with its line; `?` when the argument could not be read. */
  readonly writes: readonly { readonly key: string; readonly line: number }[];
}

// The parser's tree (ESTree with TypeScript nodes), read loosely: only the nodes named below matter.
// biome-ignore lint/suspicious/noExplicitAny: a syntax tree walked by node type
type Node = any;

function children(n: Node): Node[] {
  const out: Node[] = [];
  for (const [k, v] of Object.entries(n)) {
    if (k === 'parent') continue;
    if (Array.isArray(v)) for (const x of v) if (x && typeof x.type === 'string') out.push(x);
    if (v && typeof v === 'object' && typeof (v as Node).type === 'string') out.push(v);
  }
  return out;
}

const keyName = (k: Node): string | null =>
  k?.type === 'Identifier' ? k.name : k?.type === 'Literal' && typeof k.value === 'string' ? k.value : null;

const isFunction = (n: Node) =>
  n.type === 'ArrowFunctionExpression' || n.type === 'FunctionExpression' || n.type === 'FunctionDeclaration';

/** The keys an expression given to `set` writes: an object literal, or a function returning one. */
function keysOf(e: Node, locals: Map<string, Node>): string[] | null {
  while (['ParenthesizedExpression', 'TSAsExpression', 'TSSatisfiesExpression'].includes(e.type))
    e = e.expression;
  if (e.type === 'ObjectExpression') {
    const keys: string[] = [];
    for (const p of e.properties) {
      if (p.type === 'SpreadElement') {
        const inner = keysOf(p.argument, locals);
        if (inner === null) return null;
        keys.push(...inner);
        continue;
      }
      const k = p.computed ? null : keyName(p.key);
      if (k === null) return null;
      keys.push(k);
    }
    return keys;
  }
  if (e.type === 'ConditionalExpression') {
    const a = keysOf(e.consequent, locals);
    const b = keysOf(e.alternate, locals);
    return a && b ? [...a, ...b] : null;
  }
  if (e.type === 'Identifier' && locals.has(e.name)) return keysOf(locals.get(e.name)!, locals);
  if (e.type === 'ArrowFunctionExpression' || e.type === 'FunctionExpression') {
    if (e.body.type !== 'BlockStatement') return keysOf(e.body, locals);
    const keys: string[] = [];
    let unread = false;
    const visit = (n: Node) => {
      if (isFunction(n)) return;
      if (n.type === 'ReturnStatement' && n.argument) {
        const k = keysOf(n.argument, locals);
        if (k === null) unread = true;
        else keys.push(...k);
      }
      for (const c of children(n)) visit(c);
    };
    for (const c of children(e.body)) visit(c);
    return unread ? null : keys;
  }
  return null;
}

function readSlice(file: string): SliceWrites {
  const text = readFileSync(file, 'utf8');
  const ast = parseAst(text, { lang: 'ts' });
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  let slice = '';
  const owns = new Set<string>();
  const writes: { key: string; line: number }[] = [];
  const locals = new Map<string, Node>();
  const collect = (n: Node) => {
    if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier' && n.init)
      locals.set(n.id.name, n.init);
    for (const c of children(n)) collect(c);
  };
  collect(ast);
  const visit = (n: Node) => {
    if (n.type === 'TSInterfaceDeclaration' && /Slice$/.test(n.id.name)) {
      slice = n.id.name;
      for (const m of n.body.body) {
        const k = keyName(m.key);
        if (k) owns.add(k);
      }
    }
    if (n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'set') {
      const line = lineOf(n.start);
      const keys = n.arguments[0] ? keysOf(n.arguments[0], locals) : null;
      if (keys === null) writes.push({ key: '?', line });
      else for (const key of keys) writes.push({ key, line });
    }
    for (const c of children(n)) visit(c);
  };
  visit(ast);
  return { slice, owns, writes };
}

/** Every write a slice makes to a field it does not declare, by "Slice.field", with where. */
function strayWrites(files = sliceFiles()): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of files) {
    const { slice, owns, writes } = readSlice(f);
    const where = relative(join(STORE, '../..'), f);
    for (const w of writes) {
      if (owns.has(w.key)) continue;
      const k = w.key === '?' ? `${slice}.?` : `${slice}.${w.key}`;
      out.set(k, [...(out.get(k) ?? []), `${where}:${w.line}`]);
    }
  }
  return out;
}

/**
 * Writes across slices that remain, each being removed by the engineer named (issue #25). The list
 * can only shrink: a write not listed fails, and so does a listed one that no longer exists.
 */
const REMAINING: Readonly<Record<string, string>> = {};

describe('a slice writes only its own fields', () => {
  it('finds each slice interface and its set() calls', () => {
    const read = sliceFiles().map(readSlice);
    expect(read.length).toBeGreaterThanOrEqual(15);
    for (const r of read) expect(r.slice, 'each slice file declares a …Slice interface').toMatch(/Slice$/);
    expect(read.reduce((n, r) => n + r.writes.length, 0)).toBeGreaterThan(50);
  });

  it('no slice writes a field another slice declares (beyond the shrinking list)', () => {
    const stray = strayWrites();
    const unlisted = [...stray]
      .filter(([k]) => !(k in REMAINING))
      .map(([k, at]) => `${k} at ${at.join(', ')}`);
    expect(unlisted, 'a slice writes a field it does not own: make it a named action of the owner').toEqual(
      [],
    );
  });

  it('every write on the list still exists (the list stays true)', () => {
    const stray = strayWrites();
    const gone = Object.keys(REMAINING).filter((k) => !stray.has(k));
    expect(gone, 'fixed: take it off REMAINING').toEqual([]);
  });

  it('each slice is domain state or UI state, not both (store/app-store.ts)', () => {
    const text = readFileSync(join(STORE, 'app-store.ts'), 'utf8');
    const group = (name: string) =>
      new Set(text.match(new RegExp(`export type ${name} =([^;]*);`))?.[1]?.match(/\w+Slice/g) ?? []);
    const domain = group('DomainState');
    const ui = group('UiState');
    expect(domain.size).toBeGreaterThan(3);
    expect(ui.size).toBeGreaterThan(3);
    for (const { slice } of sliceFiles().map(readSlice))
      expect([domain.has(slice), ui.has(slice)], slice).toSatisfy(
        (g: boolean[]) => g.filter(Boolean).length === 1,
      );
  });
});
