/**
 * The walker's record of every id read (issue 27: a hash table over the ids, not a `Set`): exact,
 * whatever the hashes, and the two guards it serves (a line twice in one page, a line back on a
 * later page) name the same failures as before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LineListItem, LinesPage } from '../../src/api/contract';
import { IdSet, ListChangedError, PagingError, walkPages } from '../../src/services/page-walk';

describe('IdSet', () => {
  it('says where an id was first added, or -1, as a Map of first places does (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.string({ maxLength: 40 })), { maxLength: 3000 }),
        (ids) => {
          const set = new IdSet();
          const first = new Map<string, number>();
          for (const id of ids) {
            const at = set.add(id);
            expect(at).toBe(first.get(id) ?? -1);
            if (!first.has(id)) first.set(id, first.size);
          }
          expect(set.size).toBe(first.size);
        },
      ),
      { numRuns: 60 },
    );
  });

  /** Any code unit, lone surrogates included: an id is compared unit by unit, not as text. */
  const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
  /**
   * Ids as a server could send them: any code units, astral characters, the empty id, and now and
   * then (a few a run) one of 5,000 to 20,000 units: the table's first array of code units holds
   * 16,384.
   */
  const anyId = fc.oneof(
    { weight: 140, arbitrary: fc.string({ unit: codeUnit, maxLength: 8 }) },
    { weight: 140, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 10, arbitrary: fc.constant('') },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.string({ unit: codeUnit, minLength: 1, maxLength: 3 }),
          fc.integer({ min: 5_000, max: 20_000 }),
        )
        .map(([s, n]) => s.repeat(Math.ceil(n / s.length))),
    },
  );
  /** An id read before, or one a unit away from it: one unit less, one more, or one changed. */
  const near = (id: string, edit: number, unit: string): string => {
    if (edit === 0 || id === '') return id;
    if (edit === 1) return id.slice(0, -1);
    if (edit === 2) return id + unit;
    const i = unit.charCodeAt(0) % id.length;
    return id.slice(0, i) + String.fromCharCode(id.charCodeAt(i) ^ 1) + id.slice(i + 1);
  };
  const op = fc.oneof(
    { weight: 3, arbitrary: anyId.map((id) => ({ id }) as const) },
    { weight: 2, arbitrary: fc.record({ back: fc.nat(), edit: fc.nat({ max: 3 }), unit: codeUnit }) },
  );

  it('over any ids, read again or a unit away, past every growth: the same answers as a Set (property)', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 2_500, size: 'max' }), (ops) => {
        const set = new IdSet();
        const first = new Map<string, number>();
        const read: string[] = [];
        for (const o of ops) {
          const id =
            'id' in o ? o.id : read.length ? near(read[o.back % read.length]!, o.edit, o.unit) : o.unit;
          read.push(id);
          // Compared without expect() an add: 2,500 adds a run.
          if (set.add(id) !== (first.get(id) ?? -1)) return false;
          if (!first.has(id)) first.set(id, first.size);
          if (set.size !== first.size) return false;
        }
        // Every id still where it was first added, after all the growth.
        for (const [id, at] of first) if (set.add(id) !== at) return false;
        return set.size === first.size;
      }),
      { numRuns: 40 },
    );
  });

  /**
   * Ids in a UUID's form (kept as four words, in a table of their own) beside ones that look like a
   * UUID and are not: uppercase or other letters, a dash moved, a digit more or less. A lowercase
   * UUID and its uppercase text are two ids, as they are two strings.
   */
  const hex = fc.constantFrom(...'0123456789abcdef');
  const uuidText = fc
    .array(hex, { minLength: 32, maxLength: 32 })
    .map(
      (d) =>
        `${d.slice(0, 8).join('')}-${d.slice(8, 12).join('')}-${d.slice(12, 16).join('')}-${d.slice(16, 20).join('')}-${d.slice(20).join('')}`,
    );
  const uuidLike = fc.oneof(
    { weight: 6, arbitrary: uuidText },
    { weight: 1, arbitrary: uuidText.map((u) => u.toUpperCase()) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(uuidText, fc.nat({ max: 35 }), fc.constantFrom('g', 'A', 'F', '-', '0', 'f', ' ', '\u0660'))
        .map(([u, i, c]) => u.slice(0, i) + c + u.slice(i + 1)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(uuidText, fc.boolean()).map(([u, more]) => (more ? `${u}0` : u.slice(1))),
    },
  );
  const uuidOp = fc.oneof(
    { weight: 3, arbitrary: uuidLike.map((id) => ({ id }) as const) },
    { weight: 2, arbitrary: fc.record({ back: fc.nat(), edit: fc.nat({ max: 3 }), unit: hex }) },
  );

  it('over UUIDs and ids that look like one, read again or a digit away: the same answers as a Map (property)', () => {
    fc.assert(
      fc.property(fc.array(uuidOp, { minLength: 1, maxLength: 2_500, size: 'max' }), (ops) => {
        const set = new IdSet();
        const first = new Map<string, number>();
        const read: string[] = [];
        for (const o of ops) {
          const id =
            'id' in o ? o.id : read.length ? near(read[o.back % read.length]!, o.edit, o.unit) : o.unit;
          read.push(id);
          if (set.add(id) !== (first.get(id) ?? -1)) return false;
          if (!first.has(id)) first.set(id, first.size);
          if (set.size !== first.size) return false;
        }
        for (const [id, at] of first) if (set.add(id) !== at) return false;
        return set.size === first.size;
      }),
      { numRuns: 40 },
    );
  });

  it('two UUIDs of the same hash are two ids, and a UUID is not its uppercase text', () => {
    // The hash mixes the last three words into the first before its finalizer: a first word that
    // makes up for different last ones gives the same hash.
    const P = 0x01000193;
    const mix = (w1: number, w2: number, w3: number) =>
      Math.imul(w1 ^ Math.imul(w2 ^ Math.imul(w3, P), P), P);
    const word = (w: number) => (w >>> 0).toString(16).padStart(8, '0');
    const text = (w: readonly number[]) =>
      `${word(w[0]!)}-${word(w[1]!).slice(0, 4)}-${word(w[1]!).slice(4)}-${word(w[2]!).slice(0, 4)}-${word(w[2]!).slice(4)}${word(w[3]!)}`;
    const a = [0x0000097c, 0x1f9b4502, 0x94785140, 0x2a76db33];
    const b = [0, 0x1f9b4502, 0x12345678, 0x2a76db33];
    b[0] = a[0]! ^ mix(a[1]!, a[2]!, a[3]!) ^ mix(b[1]!, b[2]!, b[3]!);
    const [ta, tb] = [text(a), text(b)];
    expect(ta).not.toBe(tb);
    expect(IdSet.uuidHash(ta)).not.toBeNull();
    expect(IdSet.uuidHash(tb)).toBe(IdSet.uuidHash(ta));
    const set = new IdSet();
    expect(set.add(ta)).toBe(-1);
    expect(set.add(tb)).toBe(-1);
    expect(set.add(ta.toUpperCase())).toBe(-1);
    expect(IdSet.uuidHash(ta.toUpperCase())).toBeNull();
    expect(set.add(tb)).toBe(1);
    expect(set.add(ta)).toBe(0);
    expect(set.add(ta.toUpperCase())).toBe(2);
  });

  it("every id found again across the table's and the arrays' growth, astral and empty ones too", () => {
    const set = new IdSet();
    // An id longer than twice the first array of code units (16,384) first, then the empty one, then
    // enough to grow the hash table and the arrays several times over.
    const ids = [
      'x'.repeat(100_000),
      'x'.repeat(99_999),
      '',
      'x'.repeat(100_001),
      ...Array.from({ length: 5_000 }, (_, i) => `${'📺'.repeat(i % 7)}${i}\ud800`.repeat((i % 5) + 1)),
    ];
    for (const id of ids) expect(set.add(id)).toBe(-1);
    for (const [i, id] of ids.entries()) expect(set.add(id)).toBe(i);
    expect(set.size).toBe(ids.length);
    expect(set.add('\ud800')).toBe(-1);
    expect(set.add('\udc00')).toBe(-1);
    expect(set.add('x'.repeat(100_002))).toBe(-1);
  });

  // FNV-1a's two steps h → (h ^ c1) · P → ((h ^ c1) · P ^ c2) · P reach a target t when
  // c2 = (h ^ c1) · P ^ t · P⁻¹; a code unit c1 for which that c2 is a code unit too is found by
  // trying them (about one in 65,536 is; not every text has one).
  const P = 0x01000193;
  let inv = P; // P · inv ≡ 1 (mod 2³²), by Newton's iteration
  for (let i = 0; i < 5; i++) inv = Math.imul(inv, 2 - Math.imul(P, inv));
  const fnv = (text: string) => {
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), P);
    return h;
  };
  /** `prefix` and two code units whose FNV-1a is `target`, other than `not`; null when none. */
  const twoUnitsTo = (prefix: string, target: number, not = ''): string | null => {
    const h = fnv(prefix);
    for (let c1 = 0; c1 < 0x10000; c1++) {
      const c2 = (Math.imul(h ^ c1, P) ^ Math.imul(target, inv)) >>> 0;
      const text = prefix + String.fromCharCode(c1, c2);
      if (c2 < 0x10000 && text !== not) return text;
    }
    return null;
  };
  /** Two ids of the same hash: `make(base)` for the first base that has one. */
  const collide = (make: (base: string) => string | null): [string, string] => {
    for (let n = 0; n < 50; n++) {
      const base = `line-${n}`;
      const other = make(base);
      if (other !== null) return [base, other];
    }
    throw new Error('no pair found');
  };

  it('two ids of the same length and hash are two ids: the hash only says where to compare', () => {
    // Two units after the same text differ only in their low bits, which FNV-1a's product moves up
    // into the high ones: a third unit before them is varied.
    const sameLength = (base: string): string | null => {
      for (let c0 = 0x61; c0 < 0x7b; c0++) {
        const other = twoUnitsTo(base.slice(0, -3) + String.fromCharCode(c0), fnv(base), base);
        if (other !== null) return other;
      }
      return null;
    };
    const [a, b] = collide(sameLength);
    expect(b.length).toBe(a.length);
    expect(IdSet.hash(b)).toBe(IdSet.hash(a));
    const set = new IdSet();
    expect(set.add(a)).toBe(-1);
    expect(set.add(b)).toBe(-1);
    expect(set.add(b)).toBe(1);
    expect(set.add(a)).toBe(0);
  });

  it('an id and a longer one that starts with it, of the same hash, are two ids', () => {
    const [base, longer] = collide((b) => twoUnitsTo(b, fnv(b)));
    expect(IdSet.hash(longer)).toBe(IdSet.hash(base));
    const set = new IdSet();
    expect(set.add(longer)).toBe(-1);
    expect(set.add(base)).toBe(-1);
    expect(set.add(base)).toBe(1);
    expect(set.add(longer)).toBe(0);
  });
});

const line = (id: string) => ({ id, username: id }) as unknown as LineListItem;

/** A server that answers each offset with the ids given for it (a full list otherwise). */
function server(pages: Record<number, readonly string[]>, total: number) {
  return async (offset: number, limit: number): Promise<LinesPage> => {
    const ids = pages[offset] ?? [];
    const rows = ids.slice(0, limit);
    const next = offset + rows.length < total ? offset + rows.length : null;
    return {
      offset,
      limit,
      totalHits: total,
      totalReturns: rows.length,
      hasNextPage: next !== null,
      hasPreviousPage: offset > 0,
      nextOffset: next,
      previousOffset: null,
      lines: rows.map(line),
      unreadable: [],
    };
  };
}

/** What a walk that failed says: a change's detail, or a paging error's message. */
async function failure(fetch: ReturnType<typeof server>, pageSize: number): Promise<string> {
  try {
    await walk(fetch, pageSize);
  } catch (err) {
    return err instanceof ListChangedError ? `changed: ${err.detail}` : `paging: ${(err as Error).message}`;
  }
  return 'no failure';
}

async function walk(fetch: ReturnType<typeof server>, pageSize: number) {
  const seen: string[] = [];
  for await (const page of walkPages(fetch, { pageSize })) seen.push(...page.lines.map((l) => l.id));
  return seen;
}

describe('walkPages, a line read again', () => {
  it('twice in one page: a paging error', async () => {
    const fetch = server({ 0: ['a', 'b', 'a'] }, 3);
    await expect(walk(fetch, 3)).rejects.toThrow(PagingError);
    expect(await failure(fetch, 3)).toBe('paging: the server sent line a twice in one page');
  });

  it('back on a later page (the boundary line where it was): the list changed', async () => {
    // Pages of 2 overlap by one: offset 1 starts with "b", as read; "a" comes back after it.
    const fetch = server({ 0: ['a', 'b'], 1: ['b', 'a', 'c'] }, 4);
    expect(await failure(fetch, 2)).toBe('changed: line a came back on a later page');
  });

  it('twice in a later page, and read before: the list changed (the earlier page is named first)', async () => {
    const fetch = server({ 0: ['a', 'b'], 1: ['b', 'a', 'a'] }, 4);
    expect(await failure(fetch, 2)).toBe('changed: line a came back on a later page');
  });

  it('twice in a later page, new: a paging error', async () => {
    const fetch = server({ 0: ['a', 'b'], 1: ['b', 'c', 'c'] }, 4);
    expect(await failure(fetch, 2)).toBe('paging: the server sent line c twice in one page');
  });

  it('every line once when nothing repeats', async () => {
    const fetch = server({ 0: ['a', 'b'], 1: ['b', 'c', 'd'], 3: ['d', 'e'] }, 5);
    expect(await walk(fetch, 2)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
