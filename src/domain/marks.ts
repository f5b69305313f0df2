/**
 * The marked lines, held in columns. `A` marks 100,000 lines: an object per mark (with its own
 * strings and date) was ≈ 320 bytes a line in a heap snapshot, and every page of a walk left 100 of
 * them for the young generation to copy and promote. Here a batch of marks (a page of a walk, a
 * toggle) is one string holding its text, numbers and flags sit in typed arrays, and the index from
 * id to position is a `Map` whose keys are small integers when the ids are (no string kept for them).
 *
 * It behaves as the `Map<id, MarkedLine>` it replaces did, insertion order included: marking a
 * marked line again keeps its place and takes the new values. It is never changed in place: every
 * change is a new `Marks` (the store's state is compared by identity).
 */

import type { LineListItem } from '../api/contract';

export interface MarkedLine {
  readonly id: string;
  readonly username: string;
  /**
   * The line as it was when marked, as much of it as a mark is read for: a bulk job (`toBulkLine`),
   * the marks view's columns and a message export. Its start and creation dates are not kept (null).
   */
  readonly line: LineListItem;
}

/** The text fields of a mark, in the order they sit in its batch's string. */
const ID = 0;
const USERNAME = 1;
const PASSWORD = 2;
const LABEL = 3;
const HOST = 4;
const EXP_RAW = 5;
const FIELDS = 6;

const ENABLED = 1;
const TRIAL = 2;
const EXP = 4;
const EXP_MS = 8;
const APPROX = 16;

/** `host` column: no hostname; in the batch's text (not shared); else an index into `hosts`. */
const NO_HOST = -1;
const OWN_HOST = -2;

/**
 * Hostnames repeat across an account's lines: a mark names a shared one by its index. Bounded: a
 * server with a hostname per line keeps the rest in each batch's text.
 */
const hosts: string[] = [];
const hostIndex = new Map<string, number>();
const HOSTS_MAX = 1_000;
const hostOf = (h: string | null): number => {
  if (h === null) return NO_HOST;
  const i = hostIndex.get(h);
  if (i !== undefined) return i;
  if (hosts.length >= HOSTS_MAX) return OWN_HOST;
  hostIndex.set(h, hosts.length);
  hosts.push(h);
  return hosts.length - 1;
};

/** An id in canonical decimal below 10^9 is keyed by its number (a small integer: no heap object). */
const keyOf = (id: string): number | string => {
  const n = id.length;
  if (n === 0 || n > 9) return id;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = id.charCodeAt(i) - 48;
    if (c < 0 || c > 9 || (c === 0 && i === 0 && n > 1)) return id;
    v = v * 10 + c;
  }
  return v;
};

interface Columns {
  /** Which batch string holds the mark's text, and where it starts there. */
  chunk: Int32Array;
  start: Int32Array;
  /** Where each of its FIELDS ends, from its start. */
  ends: Int32Array;
  host: Int32Array;
  connections: Float64Array;
  expMs: Float64Array;
  flags: Uint8Array;
}

const columns = (cap: number): Columns => ({
  chunk: new Int32Array(cap),
  start: new Int32Array(cap),
  ends: new Int32Array(cap * FIELDS),
  host: new Int32Array(cap),
  connections: new Float64Array(cap),
  expMs: new Float64Array(cap),
  flags: new Uint8Array(cap),
});

/** `c` grown to hold `cap` marks, its first `n` kept. */
function grown(c: Columns, n: number, cap: number): Columns {
  const g = columns(cap);
  g.chunk.set(c.chunk.subarray(0, n));
  g.start.set(c.start.subarray(0, n));
  g.ends.set(c.ends.subarray(0, n * FIELDS));
  g.host.set(c.host.subarray(0, n));
  g.connections.set(c.connections.subarray(0, n));
  g.expMs.set(c.expMs.subarray(0, n));
  g.flags.set(c.flags.subarray(0, n));
  return g;
}

export class Marks implements Iterable<[string, MarkedLine]> {
  static readonly none: Marks = new Marks(columns(0), 0, [], new Map());

  /** Every one of `lines` marked, in order (a line twice: its place first, its values last). */
  static of(lines: Iterable<LineListItem>): Marks {
    const b = new MarksBuilder();
    b.add([...lines]);
    return b.build();
  }

  private constructor(
    private readonly c: Columns,
    readonly size: number,
    private readonly chunks: readonly string[],
    private readonly index: ReadonlyMap<number | string, number>,
  ) {}

  has(id: string): boolean {
    return this.index.has(keyOf(id));
  }

  /** Where the mark of `id` is in order, or -1. */
  indexOf(id: string): number {
    return this.index.get(keyOf(id)) ?? -1;
  }

  get(id: string): MarkedLine | undefined {
    const i = this.index.get(keyOf(id));
    return i === undefined ? undefined : this.at(i);
  }

  private text(i: number, field: number): string {
    const from = this.c.start[i]! + (field ? this.c.ends[i * FIELDS + field - 1]! : 0);
    return this.chunks[this.c.chunk[i]!]!.slice(from, this.c.start[i]! + this.c.ends[i * FIELDS + field]!);
  }

  idAt(i: number): string {
    return this.text(i, ID);
  }

  /** The `i`th mark's line, made when asked (the marks keep columns, not objects). */
  lineAt(i: number): LineListItem {
    const f = this.c.flags[i]!;
    const h = this.c.host[i]!;
    const approx = f & APPROX ? { approx: true } : {};
    return {
      id: this.text(i, ID),
      hostname: h === NO_HOST ? null : h === OWN_HOST ? this.text(i, HOST) : hosts[h]!,
      username: this.text(i, USERNAME),
      password: this.text(i, PASSWORD),
      label: this.text(i, LABEL),
      enabled: (f & ENABLED) !== 0,
      connections: this.c.connections[i]!,
      is_trial: (f & TRIAL) !== 0,
      exp_date:
        f & EXP ? { raw: this.text(i, EXP_RAW), ms: f & EXP_MS ? this.c.expMs[i]! : null, ...approx } : null,
      start_date: null,
      created_at: null,
    };
  }

  at(i: number): MarkedLine {
    const line = this.lineAt(i);
    return { id: line.id, username: line.username, line };
  }

  *keys(): IterableIterator<string> {
    for (let i = 0; i < this.size; i++) yield this.idAt(i);
  }

  *values(): IterableIterator<MarkedLine> {
    for (let i = 0; i < this.size; i++) yield this.at(i);
  }

  *lines(): IterableIterator<LineListItem> {
    for (let i = 0; i < this.size; i++) yield this.lineAt(i);
  }

  *[Symbol.iterator](): IterableIterator<[string, MarkedLine]> {
    for (let i = 0; i < this.size; i++) {
      const m = this.at(i);
      yield [m.id, m];
    }
  }

  /** These marks and `lines` marked too (a marked one keeps its place and takes the new values). */
  with(lines: readonly LineListItem[]): Marks {
    if (!lines.length) return this;
    const b = MarksBuilder.from(this, lines.length);
    b.add(lines);
    return b.build();
  }

  /** These marks and `other`'s (each of them in `other`'s order, as `with` would take them). */
  withMarks(other: Marks): Marks {
    if (!this.size) return other;
    if (!other.size) return this;
    const b = MarksBuilder.from(this, other.size);
    b.addMarks(other);
    return b.build();
  }

  /** These marks without `ids` (ids not marked are ignored). */
  without(ids: Iterable<string>): Marks {
    const gone = new Set<number>();
    for (const id of ids) {
      const i = this.index.get(keyOf(id));
      if (i !== undefined) gone.add(i);
    }
    if (!gone.size) return this;
    const n = this.size - gone.size;
    if (!n) return Marks.none;
    const b = new MarksBuilder(n);
    for (let i = 0; i < this.size; i++) if (!gone.has(i)) b.copy(this, i, this.chunks);
    return b.build();
  }

  /** @internal For the builder: the columns (shared between `Marks`: never written once built). */
  static parts(m: Marks) {
    return { c: m.c, chunks: m.chunks, index: m.index };
  }

  /** @internal For the builder. */
  static made(c: Columns, n: number, chunks: readonly string[], index: ReadonlyMap<number | string, number>) {
    return n ? new Marks(c, n, chunks, index) : Marks.none;
  }
}

/**
 * Marks added batch by batch (a walk's pages): each batch's text is one string. `build` ends it; a
 * builder is not used after.
 */
export class MarksBuilder {
  private c: Columns;
  private n = 0;
  private chunks: string[] = [];
  private index: Map<number | string, number>;
  /** Chunks of another `Marks` already taken, by that `Marks`' chunk list. */
  private taken = new Map<readonly string[], number>();

  constructor(capacity = 256) {
    this.c = columns(Math.max(16, capacity));
    this.index = new Map();
  }

  /** A builder that starts from `m`'s marks (copied: `m` is left as it is), room for `more`. */
  static from(m: Marks, more: number): MarksBuilder {
    const b = new MarksBuilder(0);
    const p = Marks.parts(m);
    b.c = grown(p.c, m.size, m.size + Math.max(16, more));
    b.n = m.size;
    b.chunks = [...p.chunks];
    b.taken.set(p.chunks, 0);
    b.index = new Map(p.index);
    return b;
  }

  get size(): number {
    return this.n;
  }

  /** The position for `id`: its own when marked, else a new one at the end (room made). */
  private slot(id: string): number {
    const key = keyOf(id);
    const at = this.index.get(key);
    if (at !== undefined) return at;
    if (this.n === this.c.chunk.length) this.c = grown(this.c, this.n, this.n * 2);
    this.index.set(key, this.n);
    return this.n++;
  }

  add(lines: readonly LineListItem[]): this {
    if (!lines.length) return this;
    const parts: string[] = [];
    const chunk = this.chunks.length;
    let offset = 0;
    for (const l of lines) {
      const i = this.slot(l.id);
      const c = this.c;
      const host = hostOf(l.hostname);
      const exp = l.exp_date;
      const own = host === OWN_HOST ? l.hostname! : '';
      const raw = exp ? exp.raw : '';
      parts.push(l.id, l.username, l.password, l.label, own, raw);
      c.chunk[i] = chunk;
      c.start[i] = offset;
      const e = i * FIELDS;
      let at = 0;
      at += l.id.length;
      c.ends[e + ID] = at;
      at += l.username.length;
      c.ends[e + USERNAME] = at;
      at += l.password.length;
      c.ends[e + PASSWORD] = at;
      at += l.label.length;
      c.ends[e + LABEL] = at;
      at += own.length;
      c.ends[e + HOST] = at;
      at += raw.length;
      c.ends[e + EXP_RAW] = at;
      offset += at;
      c.host[i] = host;
      c.connections[i] = l.connections;
      c.expMs[i] = exp?.ms ?? 0;
      c.flags[i] =
        (l.enabled ? ENABLED : 0) |
        (l.is_trial ? TRIAL : 0) |
        (exp ? EXP : 0) |
        (exp && exp.ms !== null ? EXP_MS : 0) |
        (exp?.approx ? APPROX : 0);
    }
    this.chunks.push(parts.join(''));
    return this;
  }

  /** Mark `j` of `from` (whose chunk list is `chunks`), at its own place here or at the end. */
  copy(from: Marks, j: number, chunks: readonly string[]): void {
    const src = Marks.parts(from).c;
    let base = this.taken.get(chunks);
    if (base === undefined) {
      base = this.chunks.length;
      this.taken.set(chunks, base);
      for (const s of chunks) this.chunks.push(s);
    }
    const i = this.slot(from.idAt(j));
    const c = this.c;
    c.chunk[i] = base + src.chunk[j]!;
    c.start[i] = src.start[j]!;
    c.ends.set(src.ends.subarray(j * FIELDS, (j + 1) * FIELDS), i * FIELDS);
    c.host[i] = src.host[j]!;
    c.connections[i] = src.connections[j]!;
    c.expMs[i] = src.expMs[j]!;
    c.flags[i] = src.flags[j]!;
  }

  addMarks(m: Marks): this {
    const chunks = Marks.parts(m).chunks;
    for (let j = 0; j < m.size; j++) this.copy(m, j, chunks);
    return this;
  }

  build(): Marks {
    // Chunks no mark points at any more (every mark of a batch replaced or dropped) are let go.
    const used = new Uint8Array(this.chunks.length);
    for (let i = 0; i < this.n; i++) used[this.c.chunk[i]!] = 1;
    if (used.includes(0)) {
      const to = new Int32Array(this.chunks.length);
      const kept: string[] = [];
      this.chunks.forEach((s, k) => {
        if (used[k]) {
          to[k] = kept.length;
          kept.push(s);
        }
      });
      for (let i = 0; i < this.n; i++) this.c.chunk[i] = to[this.c.chunk[i]!]!;
      this.chunks = kept;
    }
    // Room left over from growing (up to half the columns) is given back.
    if (this.c.chunk.length > this.n + (this.n >> 3) + 16) this.c = grown(this.c, this.n, this.n);
    return Marks.made(this.c, this.n, this.chunks, this.index);
  }
}
