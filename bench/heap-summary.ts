// Reads a V8 .heapsnapshot and says what holds the bytes: self size by constructor (with who retains
// each), and the largest retained sizes (the dominator tree, as DevTools computes it).
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[]];
      edge_fields: string[];
      edge_types: [string[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface ClassRow {
  readonly name: string;
  readonly count: number;
  readonly selfBytes: number;
  /** The retainers holding most of this class's bytes: "owner class .edge". */
  readonly heldBy: ReadonlyArray<{ readonly via: string; readonly bytes: number }>;
}
export interface DominatorRow {
  readonly name: string;
  readonly retainedBytes: number;
  /** The dominator chain up from the object, nearest first (what keeps it alive). */
  readonly chain: readonly string[];
}
export interface HeapSummary {
  readonly totalBytes: number;
  readonly nodes: number;
  readonly classes: readonly ClassRow[];
  readonly dominators: readonly DominatorRow[];
}

/** Summarises a snapshot file: the top `n` classes and dominators. */
export function summariseHeap(file: string, n = 12): HeapSummary {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const m = s.snapshot.meta;
  const NF = m.node_fields.length;
  const EF = m.edge_fields.length;
  const [T, NAME, SELF, EC] = ['type', 'name', 'self_size', 'edge_count'].map((f) =>
    m.node_fields.indexOf(f),
  );
  const [ET, EN, ETO] = ['type', 'name_or_index', 'to_node'].map((f) => m.edge_fields.indexOf(f));
  const nodeTypes = m.node_types[0];
  const edgeTypes = m.edge_types[0];
  const weak = edgeTypes.indexOf('weak');
  const shortcut = edgeTypes.indexOf('shortcut');
  const count = s.nodes.length / NF;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += s.nodes[i * NF + EC!]! * EF;
  }
  firstEdge[count] = s.edges.length;
  const self = (i: number) => s.nodes[i * NF + SELF!]!;
  const className = (i: number) => {
    const type = nodeTypes[s.nodes[i * NF + T!]!]!;
    const name = s.strings[s.nodes[i * NF + NAME!]!]!;
    if (type === 'object' || type === 'native') return name.split(' ')[0] || `(${type})`;
    if (type === 'closure') return `(closure ${name || 'anonymous'})`;
    return `(${type})`;
  };
  const edgeName = (e: number) => {
    const t = edgeTypes[s.edges[e + ET!]!];
    const v = s.edges[e + EN!]!;
    return t === 'element' || t === 'hidden' ? `[${v}]` : String(s.strings[v] ?? v);
  };
  const strong = (e: number) => {
    const t = s.edges[e + ET!]!;
    return t !== weak && t !== shortcut;
  };

  // Reverse postorder from the root over strong edges, and each node's predecessors.
  const order = new Int32Array(count).fill(-1);
  const rpo: number[] = [];
  const stack: number[] = [0];
  const next = new Uint32Array(count);
  for (let i = 0; i < count; i++) next[i] = firstEdge[i]!;
  const visited = new Uint8Array(count);
  visited[0] = 1;
  const post: number[] = [];
  while (stack.length) {
    const v = stack.at(-1)!;
    if (next[v]! < firstEdge[v + 1]!) {
      const e = next[v]!;
      next[v] = e + EF;
      if (!strong(e)) continue;
      const w = s.edges[e + ETO!]! / NF;
      if (!visited[w]) {
        visited[w] = 1;
        stack.push(w);
      }
    } else post.push(stack.pop()!);
  }
  for (let i = post.length - 1; i >= 0; i--) rpo.push(post[i]!);
  rpo.forEach((v, k) => {
    order[v] = k;
  });
  const predCount = new Uint32Array(count + 1);
  for (const v of rpo)
    for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += EF)
      if (strong(e)) predCount[s.edges[e + ETO!]! / NF]!++;
  const predStart = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) predStart[i + 1] = predStart[i]! + predCount[i]!;
  const preds = new Uint32Array(predStart[count]!);
  const fill = predStart.slice();
  /** For each node, the edge that reaches it first (for "held by"). */
  const firstIn = new Int32Array(count).fill(-1);
  const firstFrom = new Int32Array(count).fill(-1);
  for (const v of rpo)
    for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += EF)
      if (strong(e)) {
        const w = s.edges[e + ETO!]! / NF;
        preds[fill[w]!++] = v;
        if (firstIn[w] === -1 && v !== 0) {
          firstIn[w] = e;
          firstFrom[w] = v;
        }
      }

  // Cooper, Harvey and Kennedy's iterative dominators.
  const idom = new Int32Array(count).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (order[a]! > order[b]!) a = idom[a]!;
      while (order[b]! > order[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = 1; k < rpo.length; k++) {
      const v = rpo[k]!;
      let d = -1;
      for (let p = predStart[v]!; p < predStart[v + 1]!; p++) {
        const u = preds[p]!;
        if (idom[u] === -1) continue;
        d = d === -1 ? u : intersect(u, d);
      }
      if (d !== -1 && idom[v] !== d) {
        idom[v] = d;
        changed = true;
      }
    }
  }
  const retained = new Float64Array(count);
  for (const v of rpo) retained[v] = self(v);
  for (let k = rpo.length - 1; k > 0; k--) retained[idom[rpo[k]!]!]! += retained[rpo[k]!]!;

  const byClass = new Map<string, { count: number; bytes: number; via: Map<string, number> }>();
  for (const v of rpo) {
    const c = className(v);
    let row = byClass.get(c);
    if (!row) {
      row = { count: 0, bytes: 0, via: new Map() };
      byClass.set(c, row);
    }
    row.count++;
    row.bytes += self(v);
    const from = firstFrom[v]!;
    const via =
      from < 0 ? '(root)' : `${className(from)} .${edgeName(firstIn[v]!)}`.replace(/\.\[\d+\]$/, '[…]');
    row.via.set(via, (row.via.get(via) ?? 0) + self(v));
  }
  const classes = [...byClass]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, n)
    .map(([name, r]) => ({
      name,
      count: r.count,
      selfBytes: r.bytes,
      heldBy: [...r.via]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 2)
        .map(([via, bytes]) => ({ via, bytes })),
    }));
  // The largest objects that are not a (synthetic) root or a whole context of roots.
  const candidates = rpo.filter((v) => v !== 0 && idom[v] !== 0 && retained[v]! > 256 * 1024);
  candidates.sort((a, b) => retained[b]! - retained[a]!);
  const dominators: DominatorRow[] = [];
  for (const v of candidates) {
    // Nested in one already listed with nearly the same size: it says nothing new.
    let up = idom[v]!;
    let inner = false;
    while (up !== 0) {
      if (dominators.some((d) => d.name === `${className(up)}#${up}`) && retained[up]! < retained[v]! * 1.2)
        inner = true;
      up = idom[up]!;
    }
    if (inner) continue;
    const chain: string[] = [];
    for (let u = idom[v]!, k = 0; u !== 0 && k < 4; u = idom[u]!, k++) chain.push(className(u));
    dominators.push({ name: `${className(v)}#${v}`, retainedBytes: retained[v]!, chain });
    if (dominators.length >= n) break;
  }
  let total = 0;
  for (const v of rpo) total += self(v);
  return {
    totalBytes: total,
    nodes: rpo.length,
    classes,
    dominators: dominators.map((d) => ({ ...d, name: d.name.replace(/#\d+$/, '') })),
  };
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

/** The summary as Markdown: one table of classes, one of the largest retainers. */
export function heapSummaryText(h: HeapSummary, title: string): string {
  return [
    `${title}: ${mb(h.totalBytes)} reachable in ${h.nodes.toLocaleString('en')} objects.`,
    '',
    '| constructor | objects | self | held mostly by |',
    '|---|---:|---:|---|',
    ...h.classes.map(
      (c) =>
        `| ${c.name.replace(/\|/g, '\\|')} | ${c.count.toLocaleString('en')} | ${mb(c.selfBytes)} | ${c.heldBy.map((v) => `${v.via.replace(/\|/g, '\\|')} (${mb(v.bytes)})`).join('; ')} |`,
    ),
    '',
    '| retains | object | kept alive by (nearest first) |',
    '|---:|---|---|',
    ...h.dominators.map(
      (d) => `| ${mb(d.retainedBytes)} | ${d.name} | ${d.chain.join(' ← ') || '(a root)'} |`,
    ),
  ].join('\n');
}
