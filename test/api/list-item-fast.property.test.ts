/**
 * A list item in the documented form is read without zod (issue 27: `documentedLineItem`), and
 * must read as zod's schema reads it: the same values, the same keys in the same order, every
 * string sanitized; any other item is left to zod (which names what is wrong with it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineListItem, LinesPage, LinesPageDocumented } from '../../src/api/contract';
import { documentedLineItem } from '../../src/api/contract/resources';
import { isTerminalSafe } from '../../src/api/sanitize';
import type { ServiceClient } from '../../src/services/client';
import { DEFAULT_QUERY, linesPager } from '../../src/services/lines-query';
import { storeOnSandbox } from '../helpers/app';

const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('\u001b]0;x\u0007', 'a\u009bb', 'ok', '\ufeffx', ''),
);
const iso = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString());
const date = fc.oneof(
  iso,
  iso.map((t) => `${t.slice(0, 10)}\u001b${t.slice(11)}`),
  fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toString()),
  text,
);
const number = fc.oneof(
  fc.integer({ min: 0, max: 6 }),
  fc.double(),
  fc.constantFrom(-0, Number.POSITIVE_INFINITY, Number.NaN, 1e308),
);
/** Each field in its documented type (a nullable one null too). */
const documented = {
  id: text,
  hostname: fc.option(text, { nil: null }),
  username: text,
  password: text,
  label: fc.option(text, { nil: null }),
  enabled: fc.boolean(),
  connections: fc.integer({ min: 0, max: 6 }),
  is_trial: fc.boolean(),
  exp_date: fc.option(date, { nil: null }),
  start_date: fc.option(date, { nil: null }),
  created_at: fc.option(date, { nil: null }),
};
const documentedItem = fc.record(documented);
/** A field as a server may send it: its type, another, null, or left out. */
const field = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 6, arbitrary: good },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(null, undefined, 7, true, [], {}, '3', 'TRUE', 'false'),
    },
  );
const anyItem = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      Object.fromEntries(Object.entries(documented).map(([k, a]) => [k, field(a as fc.Arbitrary<unknown>)])),
      {
        requiredKeys: [],
      },
    ),
  },
  {
    weight: 1,
    arbitrary: documentedItem.map((i) => ({ ...i, connections: fc.sample(number, 1)[0], extra: 'x' })),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, [], 'line', 3, [{ id: 'x' }]) },
);

const zodRead = (item: unknown) => LineListItem.safeParse(item);

describe('a list item in the documented form, read without zod', () => {
  it('reads as zod reads it: the same values and keys in order (property)', () => {
    fc.assert(
      fc.property(documentedItem, (item) => {
        const fast = documentedLineItem(item);
        const z = zodRead(item);
        expect(fast).toBeDefined();
        expect(z.success).toBe(true);
        expect(fast).toStrictEqual(z.data);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(z.data));
        for (const v of [fast!.id, fast!.hostname, fast!.username, fast!.password, fast!.label])
          if (v !== null) expect(isTerminalSafe(v)).toBe(true);
        for (const d of [fast!.exp_date, fast!.start_date, fast!.created_at])
          if (d) expect(isTerminalSafe(d.raw)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves any other item to zod, and never reads one zod refuses (property)', () => {
    fc.assert(
      fc.property(anyItem, (item) => {
        const fast = documentedLineItem(item);
        const z = zodRead(item);
        if (!z.success) expect(fast).toBeUndefined();
        if (fast !== undefined) expect(JSON.stringify(fast)).toBe(JSON.stringify(z.data));
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves an item with a field missing, a numeric string or an infinite number to zod', () => {
    const good = fc.sample(documentedItem, 1)[0]!;
    const { label: _, ...noLabel } = good;
    expect(documentedLineItem(good)).toBeDefined();
    expect(documentedLineItem(noLabel)).toBeUndefined();
    expect(documentedLineItem({ ...good, connections: '2' })).toBeUndefined();
    expect(documentedLineItem({ ...good, enabled: 'true' })).toBeUndefined();
    expect(documentedLineItem({ ...good, connections: Number.POSITIVE_INFINITY })).toBeUndefined();
    // zod reads those it can: the page keeps them.
    const page = LinesPage.parse({
      offset: 0,
      limit: 100,
      totalHits: 3,
      totalReturns: 3,
      hasNextPage: false,
      hasPreviousPage: false,
      nextOffset: null,
      previousOffset: null,
      lines: [good, noLabel, { ...good, connections: '2' }],
    });
    expect(page.lines).toStrictEqual([
      zodRead(good).data,
      zodRead(noLabel).data,
      zodRead({ ...good, connections: '2' }).data,
    ]);
    expect(page.unreadable).toEqual([]);
  });

  it('reads a page as zod reads it: the same lines in order, the same unreadable ones (property)', () => {
    const pageOf = (lines: unknown[]) => ({
      offset: 0,
      limit: 100,
      totalHits: lines.length,
      totalReturns: lines.length,
      hasNextPage: false,
      hasPreviousPage: false,
      nextOffset: null,
      previousOffset: null,
      lines,
    });
    fc.assert(
      fc.property(fc.array(anyItem, { maxLength: 12 }), (items) => {
        const page = pageOf(items);
        expect(JSON.stringify(LinesPageDocumented.parse(page))).toBe(JSON.stringify(LinesPage.parse(page)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('who reads items without zod', () => {
  it('the walk of A asks for it; the page on screen and other reads do not', async () => {
    const asked: Array<boolean | undefined> = [];
    const env = await storeOnSandbox({ lines: 40 });
    const client: ServiceClient = {
      ...env.client,
      listLines: (q, o = {}) => {
        asked.push(o.documentedItems);
        return env.client.listLines(q, o);
      },
    };
    const { store } = await storeOnSandbox({}, { client }, env);
    await store.getState().loadLines();
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((d) => !d)).toBe(true);
    asked.length = 0;
    await store.getState().markAllMatching();
    expect(store.getState().marked.size).toBe(40);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((d) => d === true)).toBe(true);
    // The pager passes it on, and asks zod's reading otherwise.
    asked.length = 0;
    const pager = linesPager(client);
    await pager.page(DEFAULT_QUERY, 0, 5, { documentedItems: true });
    await pager.page(DEFAULT_QUERY, 0, 5);
    expect(asked).toEqual([true, undefined]);
  });
});
