import type { LineListItem, LinesPage, UnreadableItem } from '../api/contract';

/** A walk over pages stopped because the server's paging cannot be trusted. */
export class PagingError extends Error {}

/** What every walk says when the list kept changing under it (the headless exit is 1, `list_changed`). */
export const LIST_CHANGED = 'the list changed while reading; run again';

/**
 * The list changed while it was walked (the total moved, or the line at a page boundary is not the
 * one read there): what was read is not one list. `detail` says what was seen (for the log).
 */
export class ListChangedError extends Error {
  constructor(readonly detail: string) {
    super(LIST_CHANGED);
  }
}

/** The API's largest page. */
export const PAGE_MAX = 100;
/** Walks again after a change this many times before giving up (`walkWhole`). */
export const WALK_RETRIES = 2;

/**
 * `fresh` is true for the first page of a walk (and of each walk again): nothing cached may answer it.
 * `answered`, when the fetch can tell, is called once the server's reply is in hand and before it
 * is parsed: the server has read that page, so asking for the next one then keeps its reads in order.
 */
export type PageFetch = (
  offset: number,
  limit: number,
  fresh: boolean,
  answered?: () => void,
  after?: Promise<void>,
) => Promise<LinesPage>;

/** A rejection handled and left (a request's page nobody reads, a gate shut). */
const ignore = () => {};

/** Why a request made ahead was never sent: the walk no longer wanted it when it could have left. */
class NotAskedError extends Error {}

export interface WalkOptions {
  /** Checked before each page: true stops the walk quietly. */
  readonly cancelled?: () => boolean;
  /** At most this many pages whatever the server says (default 2,000: 200,000 lines at 100). */
  readonly maxPages?: number;
  readonly onPage?: (p: { pages: number; lines: number; total: number }) => void;
  /** New lines per page (default and most: 100); a page after the first asks for one more. */
  readonly pageSize?: number;
  /** Where the walk starts (default 0). */
  readonly from?: number;
  /** The total the list had when the caller last looked: a page counting another is a change. */
  readonly total?: number;
  /**
   * Read-ahead, asked with the lines the walk will have read: true lets it ask for a page before it
   * is wanted. Once a page is read and checked, the next is asked for before this one is handed over
   * (the request the walk makes anyway). And when the fetch says a reply is in hand (`answered`), the
   * page after it is asked at the offset a full page leads to (its last line read again), so the
   * server reads it while this process parses: used only when the walk then asks exactly that,
   * dropped unread otherwise, never past the total counted. A page is never asked before the one
   * before it was answered, so the server's reads keep a sequential reader's order (a server serving
   * requests at once may read them in any order: reads out of order can miss a moved line with every
   * guard passing). A consumer that stops early says false.
   */
  readonly prefetch?: (lines: number) => boolean;
  /**
   * The fetch honours `after`: a request given one is made at once and leaves only once it fulfils
   * (a rejected one ends it unsent). The page a full page leads to is then made as soon as the page
   * before it leaves, and leaves when that one is answered: the request is ready, so no work of this
   * process stands between an answer and the next request (issue 27). Without it, that request is
   * made when the answer comes.
   */
  readonly gated?: boolean;
  /**
   * Filled as the walk ends with its requests still on their way (asked ahead, never read; those
   * not yet sent are dropped unsent): a caller that walks again waits for them first, so its first
   * request is never at the server beside them.
   */
  readonly unread?: Promise<unknown>[];
}

/** One item of a page as the server sent it, readable or not, with what identifies it. */
export interface RawItem {
  readonly key: string | null;
  readonly line?: LineListItem;
  readonly bad?: UnreadableItem;
}

/** The page's items in the server's order: the unreadable ones at their index, the lines around them. */
export function rawItems(page: LinesPage): RawItem[] {
  const n = page.lines.length + page.unreadable.length;
  const slots: Array<RawItem | undefined> = new Array(n);
  const rest: RawItem[] = [];
  for (const bad of page.unreadable) {
    const item = { key: bad.id === null ? null : `id:${bad.id}`, bad };
    if (Number.isInteger(bad.index) && bad.index >= 0 && bad.index < n && !slots[bad.index])
      slots[bad.index] = item;
    else rest.push(item);
  }
  let i = 0;
  for (let k = 0; k < n; k++)
    if (!slots[k]) {
      const line = page.lines[i++];
      slots[k] = line ? { key: `id:${line.id}`, line } : rest.shift();
    }
  return slots.filter((s): s is RawItem => s !== undefined);
}

/**
 * FNV-1a over the id's UTF-16 code units, made odd so it is never 0, each unit written to `units`
 * from `from` as it is read (one pass: `IdSet.add` keeps the copy when the id is new).
 */
function hashInto(id: string, units: Uint16Array, from: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    units[from + i] = c;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h | 1;
}

/** Each code unit below 128: its value as a lowercase hex digit, else -1 (above 127: undefined). */
const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 16; c++) HEX['0123456789abcdef'.charCodeAt(c)] = c;

/**
 * A lowercase UUID's 128 bits as four words into `w` (the one parse: `IdSet.add` and the tests'
 * `IdSet.uuidHash`); false for any other id (an uppercase UUID is another id: ids compare as text,
 * so it is kept as text), `w` then undefined.
 */
function uuidWords(id: string, w: Int32Array): boolean {
  if (
    id.length !== 36 ||
    id.charCodeAt(8) !== 45 ||
    id.charCodeAt(13) !== 45 ||
    id.charCodeAt(18) !== 45 ||
    id.charCodeAt(23) !== 45
  )
    return false;
  // Eight digits a word, the dashes skipped: a non-digit's -1 sets `bad`'s sign bit.
  let bad = 0;
  let w0 = 0;
  let w1 = 0;
  let w2 = 0;
  let w3 = 0;
  for (let i = 0; i < 8; i++) {
    const v = HEX[id.charCodeAt(i)] ?? -1;
    bad |= v;
    w0 = (w0 << 4) | v;
  }
  for (let i = 9; i < 18; i++) {
    if (i === 13) continue;
    const v = HEX[id.charCodeAt(i)] ?? -1;
    bad |= v;
    w1 = (w1 << 4) | v;
  }
  for (let i = 19; i < 28; i++) {
    if (i === 23) continue;
    const v = HEX[id.charCodeAt(i)] ?? -1;
    bad |= v;
    w2 = (w2 << 4) | v;
  }
  for (let i = 28; i < 36; i++) {
    const v = HEX[id.charCodeAt(i)] ?? -1;
    bad |= v;
    w3 = (w3 << 4) | v;
  }
  if (bad < 0) return false;
  w[0] = w0;
  w[1] = w1;
  w[2] = w2;
  w[3] = w3;
  return true;
}
/** `uuidWords`' scratch: read at once after each parse (nothing is awaited between). */
const scratch = new Int32Array(4);

/** murmur3's finalizer over four words, made odd so it is never 0: a UUID's place in its table. */
function uuidHash(w0: number, w1: number, w2: number, w3: number): number {
  let h = Math.imul(
    w0 ^ Math.imul(w1 ^ Math.imul(w2 ^ Math.imul(w3, 0x01000193), 0x01000193), 0x01000193),
    0x01000193,
  );
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 1;
}

/**
 * The ids a walk has read, in the order read, with a hash table over them (issue 27: a `Set` of
 * 100,000 strings was ≈ 0.3 s of a listing). Exact: a hash only finds where to compare, an id is
 * known only when it matches whole. An id written as a lowercase UUID ("0000097c-1f9b-4502-9478-
 * 51402a76db33", what the sandbox and the real service send) is kept as its 128 bits, four words,
 * in a table of its own; any other id as its code units in one growing array. A text is a UUID's
 * or not by itself, so an id is only ever in one of the two tables, and two UUIDs are one id
 * exactly when their bits are. No id is kept as one of 100,000 strings a walk keeps alive (each
 * survived the young generation's collections into the old one). `add` says where an id was
 * already read (its index in the order read), or -1 having added it.
 */
export class IdSet {
  /**
   * The ids kept as text: two numbers a slot, side by side (one cache line read a probe, not two):
   * 0 when free, else the id's hash (never 0); then the id's index in the order read.
   */
  #slots = new Int32Array(2048);
  /** The same, for the ids kept as UUIDs. */
  #uuidSlots = new Int32Array(2048);
  /** Each UUID id's four words, by its index in the order read (a text id's are left 0). */
  #words = new Int32Array(2048);
  /** The ids' code units, one after another. */
  #units = new Uint16Array(16_384);
  /** Where each id's code units start in `#units`, and (at `size`) where the next one's will (a UUID has none). */
  #starts = new Int32Array(513);
  #size = 0;
  /** Ids in each table (each kept at most half full). */
  #texts = 0;
  #uuids = 0;

  get size(): number {
    return this.#size;
  }

  /** FNV-1a over the UTF-16 code units, made odd so it is never 0: `add`'s own for a text id (tests build ids of one hash by it). */
  static hash(id: string): number {
    return hashInto(id, new Uint16Array(id.length), 0);
  }

  /** A lowercase UUID's hash in its table, or null for an id kept as text (tests build UUIDs of one hash). */
  static uuidHash(id: string): number | null {
    const w = scratch;
    return uuidWords(id, w) ? uuidHash(w[0]!, w[1]!, w[2]!, w[3]!) : null;
  }

  add(id: string): number {
    const w = scratch;
    return uuidWords(id, w) ? this.#addUuid(w[0]!, w[1]!, w[2]!, w[3]!) : this.#addText(id);
  }

  /** The id read next: its index, and where the next one's code units start (`to`). */
  #added(to: number): number {
    const index = this.#size++;
    if (this.#size + 1 > this.#starts.length) this.#growStarts();
    this.#starts[this.#size] = to;
    return index;
  }

  #addUuid(w0: number, w1: number, w2: number, w3: number): number {
    // At most half full: probes stay short.
    if ((this.#uuids + 1) * 4 > this.#uuidSlots.length) this.#uuidSlots = grown(this.#uuidSlots);
    const h = uuidHash(w0, w1, w2, w3);
    const slots = this.#uuidSlots;
    const words = this.#words;
    const mask = (slots.length >> 1) - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const x = slots[2 * i]!;
      if (x === 0) {
        const index = this.#added(this.#starts[this.#size]!);
        slots[2 * i] = h;
        slots[2 * i + 1] = index;
        this.#uuids++;
        if (4 * index + 4 > this.#words.length) this.#growWords();
        const w = this.#words;
        w[4 * index] = w0;
        w[4 * index + 1] = w1;
        w[4 * index + 2] = w2;
        w[4 * index + 3] = w3;
        return -1;
      }
      if (x === h) {
        const at = slots[2 * i + 1]!;
        const k = 4 * at;
        if (words[k] === w0 && words[k + 1] === w1 && words[k + 2] === w2 && words[k + 3] === w3) return at;
      }
    }
  }

  #addText(id: string): number {
    // At most half full: probes stay short.
    if ((this.#texts + 1) * 4 > this.#slots.length) this.#slots = grown(this.#slots);
    // The id's code units are written after the last id's as they are hashed (one pass), and kept
    // only when the id is new.
    const from = this.#starts[this.#size]!;
    const to = from + id.length;
    if (to > this.#units.length) this.#growUnits(to);
    const h = hashInto(id, this.#units, from);
    const slots = this.#slots;
    const mask = (slots.length >> 1) - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const x = slots[2 * i]!;
      if (x === 0) {
        slots[2 * i] = h;
        slots[2 * i + 1] = this.#added(to);
        this.#texts++;
        return -1;
      }
      if (x === h && this.#same(slots[2 * i + 1]!, from, id.length)) return slots[2 * i + 1]!;
    }
  }

  /** Whether the id read `index`th is the `length` code units at `from`, unit by unit. */
  #same(index: number, from: number, length: number): boolean {
    const start = this.#starts[index]!;
    if (this.#starts[index + 1]! - start !== length) return false;
    const units = this.#units;
    for (let i = 0; i < length; i++) if (units[start + i] !== units[from + i]) return false;
    return true;
  }

  #growUnits(least: number) {
    const units = new Uint16Array(Math.max(least, this.#units.length * 2));
    units.set(this.#units.subarray(0, this.#starts[this.#size]!));
    this.#units = units;
  }

  #growStarts() {
    const starts = new Int32Array(this.#starts.length * 2);
    starts.set(this.#starts);
    this.#starts = starts;
  }

  #growWords() {
    const words = new Int32Array(this.#words.length * 2);
    words.set(this.#words);
    this.#words = words;
  }
}

/** A hash table (`IdSet`'s: a hash, never 0 in a used slot, and an index) of twice the slots, with the same entries. */
function grown(old: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const slots = new Int32Array(old.length * 2);
  const mask = (slots.length >> 1) - 1;
  for (let j = 0; j < old.length; j += 2) {
    const h = old[j]!;
    if (h === 0) continue;
    let i = h & mask;
    while (slots[2 * i] !== 0) i = (i + 1) & mask;
    slots[2 * i] = h;
    slots[2 * i + 1] = old[j + 1]!;
  }
  return slots;
}

/** A total worth comparing: a number the server counted (a missing or odd one is not compared). */
const countable = (n: number) => Number.isFinite(n) && n >= 0;

/** A request of a walk: its page, and whether the walk dropped it (a guess it did not take). */
interface Sent {
  readonly page: Promise<LinesPage>;
  dropped: boolean;
  /** Gated and asked ahead: it leaves when this opens, never when it is shut. */
  readonly latch: Latch | undefined;
}

/**
 * A gate: a request given it leaves once it opens; a shut one ends it unsent (NotAskedError). The
 * first word holds: opening or shutting it again does nothing.
 */
interface Latch {
  readonly gate: Promise<void>;
  open(): void;
  shut(why: string): void;
  /** Shut before it opened. */
  readonly isShut: boolean;
}

function latchOf(): Latch {
  let open!: () => void;
  let shut!: (err: Error) => void;
  const gate = new Promise<void>((resolve, reject) => {
    open = resolve;
    shut = reject;
  });
  gate.catch(ignore);
  let state: 'waiting' | 'open' | 'shut' = 'waiting';
  return {
    gate,
    open: () => {
      if (state === 'waiting') state = 'open';
      open();
    },
    shut: (why) => {
      if (state === 'waiting') state = 'shut';
      shut(new NotAskedError(why));
    },
    get isShut() {
      return state === 'shut';
    },
  };
}

/**
 * Every page of a listing, once, in order, each yielded with only its new lines. Consecutive pages
 * overlap by one item (a page after the first starts at the previous one's last item): when that
 * item is not the one read there, or the total moves, or a line comes back, the list changed under
 * the walk and it throws ListChangedError — never a set with a live line skipped or a deleted one
 * kept. Paging the server gets wrong (an offset not answered, one that stands still, a line twice in
 * one reply, more pages than the total allows) throws PagingError. One extra item a page, no extra
 * request. A consumer that keeps what it reads walks with `walkWhole` (which walks again).
 */
export async function* walkPages(fetch: PageFetch, opts: WalkOptions = {}): AsyncGenerator<LinesPage> {
  const seenIds = new IdSet();
  const cap = opts.maxPages ?? 2_000;
  const size = Math.max(1, Math.min(PAGE_MAX, opts.pageSize ?? PAGE_MAX));
  let total: number | null = opts.total !== undefined && countable(opts.total) ? opts.total : null;
  let pages = 0;
  let lines = 0;
  /** The offset after the last item read; null before the first page. */
  let end: number | null = null;
  /**
   * The last item read that has a key, and its offset: the next page starts there, so the item it
   * begins with proves the list did not shift. An unreadable item without an id proves nothing, so
   * the overlap reaches back past it to a readable one.
   */
  let lastKey: string | null = null;
  let lastKeyAt: number | null = null;
  /** The next request, from what was read so far (the first one, then after each page). */
  const plan = () => {
    const first: boolean = end === null;
    const back = end === null ? 0 : lastKeyAt !== null && end - lastKeyAt < PAGE_MAX ? end - lastKeyAt : 1;
    const ask: number = end === null ? (opts.from ?? 0) : end - back;
    const limit = first ? size : Math.min(PAGE_MAX, size + back);
    return { first, back, ask, limit };
  };
  type Plan = ReturnType<typeof plan>;
  /**
   * Pages asked ahead, each sent once the one before it was answered (see `prefetch`), by
   * offset+limit; `drop` ends one not yet sent (gated), so a wrong guess never leaves.
   */
  const ahead = new Map<string, Sent>();
  /** The page a full `r` leads to (its last item has a key), when one may be asked ahead. */
  const guess = (r: Plan): Plan | null => {
    const ask = r.ask + r.limit - 1;
    const limit = Math.min(PAGE_MAX, size + 1);
    if (ahead.size >= 2 || ahead.has(`${ask}+${limit}`) || total === null || ask + 1 >= total) return null;
    return { first: false, back: 1, ask, limit };
  };
  /** Set as the walk ends: a page still on its way asks nothing ahead when it is answered. */
  let over = false;
  const wanted = () => !over && !opts.cancelled?.() && opts.prefetch?.(lines + size) === true;
  const gated = opts.prefetch !== undefined && opts.gated === true;
  /** The request for `r`: the page asked ahead when the guess was right, else a new request (and
   *  the other guesses, made on the same wrong assumption, dropped: unread, or never sent). */
  const take = (r: Plan) => {
    const key = `${r.ask}+${r.limit}`;
    const hit = ahead.get(key);
    // A guess whose latch was shut (the walk did not want it when the page before it came) never
    // leaves: the page is asked anew.
    if (hit && !hit.latch?.isShut) {
      ahead.delete(key);
      return hit.page;
    }
    dropAhead();
    return send(r).page;
  };
  /** Drops every page asked ahead: those sent are waited for before a walk again (`unread`). */
  const dropAhead = () => {
    for (const a of ahead.values()) {
      a.dropped = true;
      a.latch?.shut('a guess the walk did not take');
      opts.unread?.push(a.page);
    }
    ahead.clear();
  };
  /**
   * Sends `r` (gated: makes it, to leave when `latch` opens). With read-ahead, the page a full `r`
   * leads to is asked once `r` is answered: ungated, that request is made then; gated, it is made as
   * soon as `r` leaves and its latch opens on `r`'s answer, if the walk still wants it then. A
   * dropped request asks nothing ahead (a guess's guess would not follow the walk's own requests).
   */
  const send = (r: Plan, latch?: Latch): Sent => {
    /** Gated: the page `r` leads to, made once `r` leaves, to leave when `r` is answered. */
    let following: Sent | undefined;
    // Made before the fetch, which may call `answered` before it returns; its page added after.
    const sent: Pick<Sent, 'dropped'> = { dropped: false };
    /** Gated: `answered` ran (the fetch told, as the reply came). */
    let told = false;
    // Called as `r`'s reply ends: gated, the next request, ready, leaves at once (the latch's
    // reaction is queued before anything this reply's own promise starts). Gated and not told by
    // the fetch, it runs once the page is in hand (below).
    /** Gated: the next request leaves, or never does, as the walk wants it once `r` is answered. */
    const decide = () => {
      if (!sent.dropped && wanted()) following?.latch?.open();
      else following?.latch?.shut('not wanted once the page before it was in hand');
    };
    const answered = !opts.prefetch
      ? undefined
      : gated
        ? () => {
            told = true;
            decide();
          }
        : () => {
            const g = sent.dropped ? null : guess(r);
            if (g && wanted()) ahead.set(`${g.ask}+${g.limit}`, send(g));
          };
    let page: Promise<LinesPage>;
    try {
      page = latch
        ? fetch(r.ask, r.limit, r.first, answered, latch.gate)
        : fetch(r.ask, r.limit, r.first, answered);
    } catch (err) {
      page = Promise.reject(err);
    }
    if (gated) {
      // A page in hand is answered, whether or not the fetch said so as it came; a failure is not.
      // (Its rejection handled here: a page nobody asks for never rejects unseen.)
      page.then(
        () => {
          if (!told) answered!();
        },
        () => following?.latch?.shut('the page before it was not answered'),
      );
      // The next request is made once this one leaves: at once, or when its own latch opens.
      const made = () => {
        const g = sent.dropped ? null : guess(r);
        if (!g) return;
        following = send(g, latchOf());
        ahead.set(`${g.ask}+${g.limit}`, following);
        // Told before this request was made (a fetch may say so before it returns): decided now,
        // or its latch would wait for ever.
        if (told) decide();
      };
      if (latch) latch.gate.then(made, ignore);
      else made();
    }
    // A request sent ahead whose page is never asked for (the consumer stopped) must not reject unseen.
    else page.catch(ignore);
    return Object.assign(sent, { page, latch });
  };
  let req = plan();
  let inFlight: Promise<LinesPage> | null = null;
  try {
    for (;;) {
      if (opts.cancelled?.()) return;
      inFlight ??= take(req);
      const { first, back, ask, limit } = req;
      const page = await inFlight;
      inFlight = null;
      pages++;
      if (page.offset !== ask)
        throw new PagingError(`asked for offset ${ask}, the server answered for offset ${page.offset}`);
      // A page with no unreadable item is its lines in order, each keyed by its id: read as such, with
      // no item object and no key text a line (issue 27: 100,000 of each in a listing).
      const clean = page.unreadable.length === 0;
      const raw = clean ? null : rawItems(page);
      const count = raw ? raw.length : page.lines.length;
      const keyAt = (i: number) => (raw ? raw[i]!.key : `id:${page.lines[i]!.id}`);
      if (!first) {
        if (!count) throw new ListChangedError(`the line at offset ${ask} is gone`);
        const key = keyAt(0);
        if (lastKey !== null && lastKeyAt === ask && key !== lastKey)
          throw new ListChangedError(`the line at offset ${ask} is not the one read there`);
      }
      if (countable(page.totalHits)) {
        if (total !== null && page.totalHits !== total)
          throw new ListChangedError(`the total moved from ${total} to ${page.totalHits}`);
        total = page.totalHits;
      }
      const drop = first ? 0 : Math.min(back, count);
      const fresh = raw ? raw.slice(drop) : null;
      // An id read before is this page's (read since `pageFrom`) or an earlier page's.
      const pageFrom = seenIds.size;
      for (let i = drop; i < count; i++) {
        const item = raw ? raw[i]! : null;
        const id = item ? (item.line?.id ?? item.bad?.id) : page.lines[i]!.id;
        if (id === undefined || id === null) continue;
        const before = seenIds.add(id);
        if (before >= pageFrom) throw new PagingError(`the server sent line ${id} twice in one page`);
        if (before >= 0) throw new ListChangedError(`line ${id} came back on a later page`);
      }
      if (countable(page.totalHits)) {
        const limitPages =
          Math.ceil(page.totalHits / Math.max(1, Math.min(limit, page.limit) - Math.max(1, back))) + 2;
        if (pages > Math.max(1, Math.min(cap, limitPages)))
          throw new PagingError(`more pages than the ${page.totalHits} lines it counts can fill`);
      } else if (pages > cap) throw new PagingError(`more than ${cap} pages`);
      // Loops, not flatMap: an array per item was a measurable share of a 100,000-line walk.
      const newLines: LineListItem[] = fresh ? [] : page.lines.slice(drop);
      const unreadable: UnreadableItem[] = [];
      if (fresh)
        for (let index = 0; index < fresh.length; index++) {
          const i = fresh[index]!;
          if (i.line) newLines.push(i.line);
          if (i.bad) unreadable.push({ ...i.bad, index });
        }
      lines += newLines.length;
      // What follows this page, decided before it is handed over (thrown after, as before).
      const next = page.nextOffset;
      const stop =
        next === null
          ? null
          : next <= ask
            ? new PagingError(`the next offset (${next}) does not move forward from ${ask}`)
            : count <= drop
              ? new PagingError(
                  `the page at offset ${ask} brought no new line though more are said to follow`,
                )
              : undefined;
      if (stop === undefined) {
        end = ask + count;
        for (let i = count - 1; i >= 0; i--) {
          const key = keyAt(i);
          if (key !== null) {
            lastKey = key;
            lastKeyAt = ask + i;
            break;
          }
        }
        req = plan();
        if (opts.prefetch?.(lines) && !opts.cancelled?.()) inFlight = take(req);
      }
      opts.onPage?.({ pages, lines, total: total ?? lines });
      yield {
        ...page,
        offset: ask + drop,
        totalReturns: count - drop,
        lines: newLines,
        unreadable,
      };
      if (stop === null) return;
      if (stop) throw stop;
    }
  } finally {
    // Ended (read to the end, stopped, or thrown): what was asked ahead is not read.
    over = true;
    dropAhead();
    if (inFlight) opts.unread?.push(inFlight);
  }
}

/**
 * A whole walk whose result is kept: `init` starts the result, `step` adds a page to it (true
 * stops the walk there, complete for what it wanted). When the list changes under it, the result is
 * dropped and the walk starts again from the first page (fresh), up to `retries` times; then
 * ListChangedError. A cancelled walk returns what it has.
 */
export async function walkWhole<S>(
  fetch: PageFetch,
  init: () => S,
  step: (state: S, page: LinesPage) => unknown,
  opts: WalkOptions & {
    readonly retries?: number;
    readonly onRestart?: (err: ListChangedError) => void;
  } = {},
): Promise<S> {
  const retries = opts.retries ?? WALK_RETRIES;
  for (let attempt = 0; ; attempt++) {
    const state = init();
    const unread: Promise<unknown>[] = [];
    try {
      for await (const page of walkPages(fetch, {
        ...opts,
        ...(attempt ? { total: undefined } : {}),
        unread,
      }))
        if (step(state, page) === true) break;
      return state;
    } catch (err) {
      if (!(err instanceof ListChangedError) || attempt >= retries || opts.cancelled?.()) throw err;
      opts.onRestart?.(err);
      // The walk again starts once the last one's requests are answered: one at the server at a time.
      await Promise.allSettled(unread);
    }
  }
}
