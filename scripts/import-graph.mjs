#!/usr/bin/env node
/**
 * The import graph of src/ by layer: `node scripts/import-graph.mjs [--json]`. Prints the layer-to-layer
 * arrows with their counts, every import that points up (against LAYERS), and every circle of files
 * (strongly connected components), at run time and through types only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Lower layers first: a file may import its own layer or any layer listed before it. */
export const LAYERS = [
  ['base', ['src/paths.ts', 'src/version.ts']],
  ['api', ['src/api/']],
  ['domain', ['src/domain/']],
  ['services', ['src/services/']],
  ['present', ['src/present/']],
  ['start', ['src/app/run.tsx', 'src/app/ui-entry.tsx', 'src/cli.ts', 'src/cli-args.ts']],
  ['app', ['src/app/']],
  ['store', ['src/store/']],
  ['commands', ['src/commands/']],
  ['keys', ['src/keys/']],
  ['ui', ['src/ui/']],
  ['headless', ['src/headless/']],
  ['sandbox', ['src/sandbox/']],
];
/** Lower layers first (the list above, read from the top); `start` wires the front-ends together. */
const ORDER = [
  'base',
  'api',
  'domain',
  'services',
  'present',
  'app',
  'store',
  'commands',
  'keys',
  'ui',
  'headless',
  'start',
];
/** Arrows that are allowed although they do not point down the order: the sandbox is a service of
 *  its own built on the contract, and start-up may launch it. */
const ALLOWED = new Set(['sandbox>api', 'sandbox>domain', 'sandbox>base', 'start>sandbox', 'app>sandbox']);
/** Layers that must not see each other although the order would allow it: the two front-ends. */
const APART = new Set([
  'headless>ui',
  'headless>keys',
  'headless>store',
  'ui>headless',
  'keys>headless',
  'store>headless',
]);

export function layerOf(path) {
  for (const [name, prefixes] of LAYERS)
    if (prefixes.some((p) => path === p || path.startsWith(p))) return name;
  return 'other';
}

function files(root, dir) {
  const out = [];
  for (const e of readdirSync(join(root, dir))) {
    const p = join(dir, e);
    if (statSync(join(root, p)).isDirectory()) out.push(...files(root, p));
    else if (/\.(ts|tsx)$/.test(e)) out.push(p);
  }
  return out;
}

function resolveSpec(root, from, spec) {
  const base = resolve(root, dirname(from), spec).replace(/\.js$/, '');
  for (const ext of ['.ts', '.tsx', '/index.ts', '']) {
    try {
      if (statSync(base + ext).isFile()) return relative(root, base + ext);
    } catch {}
  }
  return null;
}

/** Only types cross this import (erased at build): `import type`, or every name marked `type`. */
const typeOnly = (clause) => {
  if (/^\s*(import|export)\s+type\b/.test(clause)) return true;
  const names = clause.match(/\{([^}]*)\}/);
  if (!names || /^\s*import\s+[\w$]+\s*,/.test(clause)) return false;
  const list = names[1]
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return list.length > 0 && list.every((n) => n.startsWith('type '));
};

/** Every file of src/ and what it imports: `edges` all, `runtime` those not erased at build. */
export function imports(root = process.cwd()) {
  const all = files(root, 'src');
  const edges = new Map(all.map((f) => [f, new Set()]));
  const runtime = new Map(all.map((f) => [f, new Set()]));
  for (const f of all) {
    const text = readFileSync(join(root, f), 'utf8');
    for (const m of text.matchAll(
      /(?:^|\n)(\s*(?:import|export)[^'"]*?from\s*)['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g,
    )) {
      const to = resolveSpec(root, f, m[2] ?? m[3]);
      if (!to || !edges.has(to)) continue;
      edges.get(f).add(to);
      if (!m[1] || !typeOnly(m[1])) runtime.get(f).add(to);
    }
  }
  return { all, edges, runtime };
}

export function graph(root = process.cwd()) {
  const { all, edges, runtime } = imports(root);
  const rank = new Map(ORDER.map((n, i) => [n, i]));
  const arrows = new Map();
  const up = [];
  for (const [from, tos] of edges)
    for (const to of tos) {
      const a = layerOf(from);
      const b = layerOf(to);
      if (a === b) continue;
      const key = `${a}>${b}`;
      arrows.set(key, (arrows.get(key) ?? 0) + 1);
      const bad = APART.has(key) || (!ALLOWED.has(key) && (rank.get(b) ?? 99) > (rank.get(a) ?? -1));
      if (bad) up.push(`${from} -> ${to} (${key})`);
    }
  return {
    files: all.length,
    arrows: Object.fromEntries([...arrows].sort()),
    up,
    circles: circles(runtime),
    typeCircles: circles(edges).filter((c) => !circles(runtime).some((r) => c.every((f) => r.includes(f)))),
  };
}

/** Tarjan's strongly connected components with more than one file. */
function circles(edges) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const g = graph();
  if (process.argv.includes('--json')) console.log(JSON.stringify(g, null, 2));
  else {
    console.log(`${g.files} files`);
    console.log('layer arrows:');
    for (const [k, n] of Object.entries(g.arrows)) console.log(`  ${k.replace('>', ' -> ')}  ${n}`);
    console.log(`imports that point up or across: ${g.up.length}`);
    for (const u of g.up) console.log(`  ${u}`);
    console.log(`circles (at run time): ${g.circles.length}`);
    for (const c of g.circles) console.log(`  ${c.length} files: ${c.join(', ')}`);
    console.log(`circles through types only: ${g.typeCircles.length}`);
    for (const c of g.typeCircles) console.log(`  ${c.length} files: ${c.join(', ')}`);
  }
}
