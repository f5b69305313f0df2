/**
 * The marked lines, held in columns. `A` marks 100,000 lines: an object per mark (with its own
 * strings and date) was ≈ 320 bytes a line in a heap snapshot, and every page of a walk left 100 of
 * them for the young generation to copy and promote. Here a mark's text is UTF-8 in one buffer
 * outside the heap, its numbers and flags sit in typed arrays, and the index from id to position is
 * a table of positions keyed by the id's number or UUID bits (`Ids`): ≈ 120 bytes a line, no object.
 * It behaves as the `Map<id, MarkedLine>` it replaces did, insertion order included: marking a
 * marked line again keeps its place and takes the new values. It is never changed in place: every
 * change is a new `Marks` (the store's state is compared by identity).
 */

import type { LineListItem } from '../api/contract';
import { canonicalMs } from '../api/contract/dates';

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

/** How an id is keyed: by its number (below 10^9, canonical decimal), by a UUID's 128 bits
 *  (canonical lowercase form), or as itself. */
const NUMBER = 0;
const UUID = -2;
const OTHER = -1;
/** What `keyKind` read: the number, or the UUID's four words. */
let keyNumber = 0;
const scratch = new Int32Array(4);
/** `uuidAt`'s character codes: the hex digits, and the 36 of one UUID as it is written. */
const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const uuidCodes: number[] = new Array(36).fill(0);
const hex = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1);

function keyKind(id: string): number {
  const n = id.length;
  if (n === 36) {
    let w = 0;
    let word = 0;
    let count = 0;
    for (let i = 0; i < 36; i++) {
      const c = id.charCodeAt(i);
      if (i === 8 || i === 13 || i === 18 || i === 23) {
        if (c !== 45) return OTHER;
        continue;
      }
      const v = hex(c);
      if (v < 0) return OTHER;
      word = (word << 4) | v;
      if (++count === 8) {
        scratch[w++] = word;
        word = 0;
        count = 0;
      }
    }
    return UUID;
  }
  if (n === 0 || n > 9) return OTHER;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = id.charCodeAt(i) - 48;
    if (c < 0 || c > 9 || (c === 0 && i === 0 && n > 1)) return OTHER;
    v = v * 10 + c;
  }
  keyNumber = v;
  return NUMBER;
}

/**
 * Where each id's mark is. Ids keyed by number or by UUID bits (most servers' ids) sit in an
 * open-addressed table of positions (`Int32Array`s: ≈ 14–30 bytes an id; a `Map` of the ids' text
 * took ≈ 90 with the strings it kept), others in a `Map`. Only added to, by the builder that owns
 * it; a built `Marks` shares it and never writes.
 *
 * Not the listing walker's `IdSet` (services/page-walk.ts), though both give an id's place in the
 * order added: marks are looked up without adding (`get`), shared between `Marks` and copied for
 * the next builder (`copy`); both keep no text for a lowercase UUID id (made from its bits: `uuidAt`
 * here, four words there: marks of 100,000 lines are ≈ 105 bytes a line, PERFORMANCE.md). `IdSet`
 * is add-only, never copied, and keeps ids of any other form as code units, where this `Map` keeps
 * their strings (rare in marks; a walk of such a server reads them all). One table for both would
 * cost the marks that memory or the walk those strings.
 */
class Ids {
  private constructor(
    /** Position + 1 of the mark whose key hashes here (0: empty); a power of two long. */
    private slots: Int32Array,
    /** By position: the id's number; UUID (its 128 bits in `words`); or OTHER (in `other`). */
    private keys: Int32Array,
    private words: Int32Array,
    private size: number,
    private readonly other: Map<string, number>,
  ) {}

  static empty(capacity: number): Ids {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    const cap = Math.max(16, capacity);
    return new Ids(new Int32Array(n), new Int32Array(cap), new Int32Array(cap * 4), 0, new Map());
  }

  copy(more: number): Ids {
    const cap = Math.max(16, this.size + more);
    const keys = new Int32Array(cap);
    keys.set(this.keys.subarray(0, this.size));
    const words = new Int32Array(cap * 4);
    words.set(this.words.subarray(0, this.size * 4));
    return new Ids(this.slots.slice(), keys, words, this.size, new Map(this.other));
  }

  /** The table's start for the key of `kind` (a number: `k`; a UUID: `w`'s words at `at`). */
  private static hash(kind: number, k: number, w: Int32Array, at: number, mask: number): number {
    const h =
      kind === UUID
        ? w[at]! ^ Math.imul(w[at + 1]!, 31) ^ Math.imul(w[at + 2]!, 961) ^ Math.imul(w[at + 3]!, 29791)
        : k;
    return Math.imul(h, 0x9e3779b1) & mask;
  }

  get(id: string): number {
    const kind = keyKind(id);
    if (kind === OTHER) return this.other.get(id) ?? -1;
    const k = kind === UUID ? UUID : keyNumber;
    const at = this.find(kind, k);
    return at >= 0 ? at : -1;
  }

  /**
   * The position of the key `keyKind` just read (`k`; a UUID's words in `scratch`), or, when it is
   * not here, -1 - the free slot where its probe ended. A UUID is found only with all four words
   * equal: the slot is the hash's low bits, and UUIDs alike but for a word's top bits share a run.
   */
  private find(kind: number, k: number): number {
    const mask = this.slots.length - 1;
    for (let i = Ids.hash(kind, k, scratch, 0, mask); ; i = (i + 1) & mask) {
      const s = this.slots[i]!;
      if (s === 0) return -1 - i;
      const p = s - 1;
      if (this.keys[p] !== k) continue;
      if (kind !== UUID) return p;
      const w = this.words;
      if (
        w[p * 4] === scratch[0] &&
        w[p * 4 + 1] === scratch[1] &&
        w[p * 4 + 2] === scratch[2] &&
        w[p * 4 + 3] === scratch[3]
      )
        return p;
    }
  }

  /** Whether the id at `pos` is a UUID kept as its bits (its text is made from them: `uuidAt`). */
  isUuid(pos: number): boolean {
    return this.keys[pos] === UUID;
  }

  /**
   * The UUID at `pos` in its canonical form (lowercase, as it was read: anything else is OTHER).
   * Its 36 character codes made at once: the bulk preview counts 100,000 marks as it opens, and the
   * words' hex text sliced and joined was ≈ 1.5–3 µs a mark, a third of that count (issue #27).
   */
  uuidAt(pos: number): string {
    let j = 0;
    for (let k = 0; k < 4; k++) {
      const w = this.words[pos * 4 + k]!;
      for (let shift = 28; shift >= 0; shift -= 4) {
        if (j === 8 || j === 13 || j === 18 || j === 23) uuidCodes[j++] = 45; // '-'
        uuidCodes[j++] = HEX_CODES[(w >>> shift) & 15]!;
      }
    }
    return String.fromCharCode.apply(null, uuidCodes);
  }

  /**
   * Where `id`'s mark is, or -1 having added `id` at `pos` (the next position). The id is read once
   * for both (`A` adds 100,000 new ids: looked up, then read again to be added, it was read twice).
   */
  getOrAdd(id: string, pos: number): number {
    const kind = keyKind(id);
    if (kind === OTHER) {
      const at = this.other.get(id);
      if (at !== undefined) return at;
      this.roomFor(pos);
      this.keys[pos] = OTHER;
      this.other.set(id, pos);
      return -1;
    }
    const k = kind === UUID ? UUID : keyNumber;
    const at = this.find(kind, k);
    if (at >= 0) return at;
    this.roomFor(pos);
    this.keys[pos] = k;
    if (kind === UUID) this.words.set(scratch, pos * 4);
    // At most half full: the table doubled (every key placed again), else the free slot found.
    if (this.size * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.slots[-1 - at] = pos + 1;
    return -1;
  }

  /** Room for a key at `pos`, the next position, which it then is. */
  private roomFor(pos: number): void {
    if (pos >= this.keys.length) {
      const keys = new Int32Array(this.keys.length * 2);
      keys.set(this.keys);
      this.keys = keys;
      const words = new Int32Array(keys.length * 4);
      words.set(this.words);
      this.words = words;
    }
    this.size = pos + 1;
  }

  private place(pos: number): void {
    const mask = this.slots.length - 1;
    const k = this.keys[pos]!;
    let i = Ids.hash(k === UUID ? UUID : NUMBER, k, this.words, pos * 4, mask);
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = pos + 1;
  }

  private rehash(length: number): void {
    this.slots = new Int32Array(length);
    for (let p = 0; p < this.size; p++) if (this.keys[p] !== OTHER) this.place(p);
  }
}

interface Columns {
  /** Where the mark's text starts in `bytes` (UTF-8), and where each of its FIELDS ends from there. */
  start: Int32Array;
  ends: Uint16Array;
  host: Int32Array;
  connections: Float64Array;
  expMs: Float64Array;
  flags: Uint8Array;
}

const columns = (cap: number): Columns => ({
  start: new Int32Array(cap),
  ends: new Uint16Array(cap * FIELDS),
  host: new Int32Array(cap),
  connections: new Float64Array(cap),
  expMs: new Float64Array(cap),
  flags: new Uint8Array(cap),
});

/** `c` grown (or cut) to hold `cap` marks, its first `n` kept. */
function resized(c: Columns, n: number, cap: number): Columns {
  const g = columns(cap);
  g.start.set(c.start.subarray(0, n));
  g.ends.set(c.ends.subarray(0, n * FIELDS));
  g.host.set(c.host.subarray(0, n));
  g.connections.set(c.connections.subarray(0, n));
  g.expMs.set(c.expMs.subarray(0, n));
  g.flags.set(c.flags.subarray(0, n));
  return g;
}

const encoder = new TextEncoder();
// `ignoreBOM`: a field's text starting with U+FEFF keeps it (by default the decoder takes it for a
// byte-order mark and drops it: an id "\uFEFF3" would come back as "3", another line).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The marks' text: UTF-8 in one buffer outside the JavaScript heap. Held as strings, a walk's 1,000
 * batches sat among the pages V8 promoted while parsing them, and the collection after `A` could not
 * give those pages back; bytes here cost the heap nothing and go back whole.
 */
interface Text {
  bytes: Uint8Array;
  used: number;
  /** Bytes no mark points at any more (replaced or unmarked): compacted away past half. */
  dead: number;
  /**
   * The rare text UTF-8 cannot carry unchanged (a lone surrogate): that mark's six strings, by
   * position (the `ODD` flag).
   */
  odd: Map<number, readonly string[]>;
}

const ODD = 32;
/** The expiry's text is what `toISOString` makes of its time (as the sandbox and most servers send). */
const ISO = 64;
/**
 * Whether `raw` is exactly what `new Date(ms).toISOString()` prints (`YYYY-MM-DDTHH:MM:SS.sssZ`,
 * years 1000–9999), read by its digits: `toISOString` on each of 100,000 lines cost ≈ 3 µs a line.
 */
function isIso(d: { raw: string; ms: number | null; approx?: boolean }): boolean {
  // A canonical text that reads as exactly this time is what toISOString prints for it.
  return d.ms !== null && !d.approx && canonicalMs(d.raw) === d.ms;
}

export class Marks implements Iterable<[string, MarkedLine]> {
  static readonly none: Marks = new Marks(
    columns(0),
    0,
    { bytes: new Uint8Array(0), used: 0, dead: 0, odd: new Map() },
    Ids.empty(0),
  );

  /** Every one of `lines` marked, in order (a line twice: its place first, its values last). */
  static of(lines: Iterable<LineListItem>): Marks {
    const b = new MarksBuilder();
    b.add([...lines]);
    return b.build();
  }

  private constructor(
    private readonly c: Columns,
    readonly size: number,
    private readonly t: Readonly<Text>,
    private readonly index: Ids,
  ) {}

  has(id: string): boolean {
    return this.index.get(id) >= 0;
  }

  /** Where the mark of `id` is in order, or -1. */
  indexOf(id: string): number {
    return this.index.get(id);
  }

  get(id: string): MarkedLine | undefined {
    const i = this.index.get(id);
    return i < 0 ? undefined : this.at(i);
  }

  private text(i: number, field: number): string {
    // A UUID id is not in the text: its bits are in the index.
    if (field === ID && this.index.isUuid(i)) return this.index.uuidAt(i);
    if (this.c.flags[i]! & ODD) return this.t.odd.get(i)![field]!;
    const s = this.c.start[i]!;
    const from = s + (field ? this.c.ends[i * FIELDS + field - 1]! : 0);
    const to = s + this.c.ends[i * FIELDS + field]!;
    return from === to ? '' : decoder.decode(this.t.bytes.subarray(from, to));
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
        f & EXP
          ? {
              raw: f & ISO ? new Date(this.c.expMs[i]!).toISOString() : this.text(i, EXP_RAW),
              ms: f & EXP_MS ? this.c.expMs[i]! : null,
              ...approx,
            }
          : null,
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
      const i = this.index.get(id);
      if (i >= 0) gone.add(i);
    }
    if (!gone.size) return this;
    const n = this.size - gone.size;
    if (!n) return Marks.none;
    const b = new MarksBuilder(n);
    for (let i = 0; i < this.size; i++) if (!gone.has(i)) b.copy(this, i);
    return b.build();
  }

  /** @internal For the builder: the columns (shared between `Marks`: never written once built). */
  static parts(m: Marks) {
    return { c: m.c, t: m.t, index: m.index };
  }

  /** @internal For the builder. */
  static made(c: Columns, n: number, t: Text, index: Ids) {
    return n ? new Marks(c, n, t, index) : Marks.none;
  }
}

/** Marks added batch by batch (a walk's pages). `build` ends it; a builder is not used after. */
export class MarksBuilder {
  private c: Columns;
  private n = 0;
  private t: Text;
  private index: Ids;

  constructor(capacity = 256) {
    this.c = columns(Math.max(16, capacity));
    this.t = { bytes: new Uint8Array(Math.max(1024, capacity * 64)), used: 0, dead: 0, odd: new Map() };
    this.index = Ids.empty(Math.max(16, capacity));
  }

  /** A builder that starts from `m`'s marks (copied: `m` is left as it is), room for `more`. */
  static from(m: Marks, more: number): MarksBuilder {
    const b = new MarksBuilder(0);
    const p = Marks.parts(m);
    b.c = resized(p.c, m.size, m.size + Math.max(16, more));
    b.n = m.size;
    const bytes = new Uint8Array(p.t.used + Math.max(1024, more * 64));
    bytes.set(p.t.bytes.subarray(0, p.t.used));
    b.t = { bytes, used: p.t.used, dead: p.t.dead, odd: new Map(p.t.odd) };
    b.index = p.index.copy(more);
    return b;
  }

  get size(): number {
    return this.n;
  }

  /** The position for `id`: its own when marked (its old text dead), else a new one at the end. */
  private slot(id: string): number {
    const at = this.index.getOrAdd(id, this.n);
    if (at >= 0) {
      this.t.dead += this.c.ends[at * FIELDS + FIELDS - 1]!;
      this.t.odd.delete(at);
      return at;
    }
    if (this.n === this.c.start.length) this.c = resized(this.c, this.n, this.n * 2);
    return this.n++;
  }

  /** Room for `more` bytes of text. */
  private room(more: number): void {
    const t = this.t;
    if (t.used + more <= t.bytes.length) return;
    const bytes = new Uint8Array(Math.max(t.bytes.length * 2, t.used + more));
    bytes.set(t.bytes.subarray(0, t.used));
    t.bytes = bytes;
  }

  /** Writes mark `i`'s six strings as its text. */
  private write(i: number, fields: readonly string[]): void {
    const t = this.t;
    const c = this.c;
    c.start[i] = t.used;
    // Mostly ASCII: the six written at once, each one byte a character (their ends their lengths).
    const all = fields[0]! + fields[1]! + fields[2]! + fields[3]! + fields[4]! + fields[5]!;
    if (all.length <= 0xffff) {
      this.room(all.length);
      const r = encoder.encodeInto(all, t.bytes.subarray(t.used, t.used + all.length));
      if (r.read === all.length && r.written === all.length) {
        let at = 0;
        for (let f = 0; f < FIELDS; f++) c.ends[i * FIELDS + f] = at += fields[f]!.length;
        t.used += at;
        return;
      }
    }
    // At most 3 bytes of UTF-8 a UTF-16 unit: room for all six before any is written.
    let most = 0;
    for (const s of fields) most += s.length * 3;
    // Text UTF-8 cannot carry, or longer than its ends can say (65,535 bytes): kept as strings.
    if (most > 0xffff || !fields.every((s) => s.isWellFormed())) {
      t.odd.set(i, fields);
      c.ends.fill(0, i * FIELDS, (i + 1) * FIELDS);
      c.flags[i]! |= ODD;
      return;
    }
    this.room(most);
    let at = 0;
    for (let f = 0; f < FIELDS; f++) {
      at += encoder.encodeInto(fields[f]!, t.bytes.subarray(t.used + at)).written;
      c.ends[i * FIELDS + f] = at;
    }
    t.used += at;
  }

  add(lines: readonly LineListItem[]): this {
    for (const l of lines) {
      const i = this.slot(l.id);
      const c = this.c;
      const host = hostOf(l.hostname);
      const exp = l.exp_date;
      c.host[i] = host;
      c.connections[i] = l.connections;
      c.expMs[i] = exp?.ms ?? 0;
      const iso = exp !== null && isIso(exp);
      c.flags[i] =
        (l.enabled ? ENABLED : 0) |
        (l.is_trial ? TRIAL : 0) |
        (exp ? EXP : 0) |
        (exp && exp.ms !== null ? EXP_MS : 0) |
        (exp?.approx ? APPROX : 0) |
        (iso ? ISO : 0);
      this.write(i, [
        this.index.isUuid(i) ? '' : l.id,
        l.username,
        l.password,
        l.label,
        host === OWN_HOST ? l.hostname! : '',
        exp && !iso ? exp.raw : '',
      ]);
    }
    return this;
  }

  /** Mark `j` of `from`, at its own place here or at the end. */
  copy(from: Marks, j: number): void {
    const { c: src, t: st } = Marks.parts(from);
    const i = this.slot(from.idAt(j));
    const c = this.c;
    c.host[i] = src.host[j]!;
    c.connections[i] = src.connections[j]!;
    c.expMs[i] = src.expMs[j]!;
    c.flags[i] = src.flags[j]!;
    c.ends.set(src.ends.subarray(j * FIELDS, (j + 1) * FIELDS), i * FIELDS);
    if (src.flags[j]! & ODD) {
      c.start[i] = this.t.used;
      this.t.odd.set(i, st.odd.get(j)!);
      return;
    }
    const len = src.ends[j * FIELDS + FIELDS - 1]!;
    this.room(len);
    c.start[i] = this.t.used;
    this.t.bytes.set(st.bytes.subarray(src.start[j]!, src.start[j]! + len), this.t.used);
    this.t.used += len;
  }

  addMarks(m: Marks): this {
    for (let j = 0; j < m.size; j++) this.copy(m, j);
    return this;
  }

  build(): Marks {
    // Text of marks replaced past half of it: the marks copied afresh, their text packed.
    if (this.t.dead > this.t.used / 2) {
      const loose = Marks.made(this.c, this.n, this.t, this.index);
      const packed = new MarksBuilder(this.n);
      packed.addMarks(loose);
      return packed.build();
    }
    // Room left over from growing is given back.
    if (this.c.start.length > this.n + (this.n >> 3) + 16) this.c = resized(this.c, this.n, this.n);
    if (this.t.bytes.length > this.t.used + (this.t.used >> 3) + 1024)
      this.t.bytes = this.t.bytes.slice(0, this.t.used);
    return Marks.made(this.c, this.n, this.t, this.index);
  }
}
