/**
 * A reply whose bytes show every string in it printable ASCII (`jsonStringsPrintable`: ASCII, no DEL,
 * no backslash) is read without a sanitize a string (issue 27). It must be exact: whenever the bytes
 * pass, every string `JSON.parse` reads from them (keys and values) is one the rule keeps as it is,
 * and a page read that way is the page read string by string, and the page zod alone reads. Bodies
 * are written as servers may write them: `JSON.stringify`, every character escaped, pretty-printed,
 * `\/`, and raw DEL, C1, separators, bidi marks, tags and invalid UTF-8.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { LinesPage } from '../../src/api/contract';
import { unwrapLazy } from '../../src/api/contract/lazy';
import { safeParseTiered } from '../../src/api/contract/tiered-parse';
import { jsonStringsPrintable, PLACEHOLDER, sanitize } from '../../src/api/sanitize';
import { json, scriptedServer } from '../helpers/scripted-server';

/** Every string in a parsed value, keys included, however deep. */
const strings = (v: unknown): string[] =>
  typeof v === 'string'
    ? [v]
    : v && typeof v === 'object'
      ? Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)])
      : [];
const PRINTABLE = /^[\u0020-\u007e]*$/;

/** Printable ASCII but `"` and `\` most of the time (so many bodies pass), anything else sometimes. */
const text = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.string({
      unit: fc
        .integer({ min: 0x20, max: 0x7e })
        .filter((c) => c !== 0x22 && c !== 0x5c)
        .map((c) => String.fromCharCode(c)),
      maxLength: 20,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.string({
      unit: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom('a', 'Z', '0', ' ', '~', '/', '-') },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '"',
            '\\',
            '\u0000',
            '\u0009',
            '\u000a',
            '\u001b',
            '\u007f',
            '\u0080',
            '\u009b',
            '\u00e9',
            '\u061c',
            '\u180e',
            '\u200b',
            '\u2028',
            '\u202e',
            '\u2066',
            '\ufeff',
            '\ufff9',
            '\u{E0041}',
            '\ud800',
            '\udc00',
            '📺',
          ),
        },
      ),
      maxLength: 20,
    }),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);
const date = fc.oneof(
  fc.constant(null),
  fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString()),
  fc.constantFrom('2027-06-02 09:46', 'soon', '2027-02-30'),
  text,
);
const item = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      id: text,
      hostname: fc.option(text, { nil: null }),
      username: text,
      password: text,
      label: fc.option(text, { nil: null }),
      enabled: fc.boolean(),
      connections: fc.integer({ min: 0, max: 9 }),
      is_trial: fc.boolean(),
      exp_date: date,
      start_date: date,
      created_at: date,
    }),
  },
  // Forms the schema reads liberally or not at all, and extra fields.
  {
    weight: 1,
    arbitrary: fc.record({ id: text, username: text, password: text, enabled: fc.constant('true') }),
  },
  { weight: 1, arbitrary: fc.dictionary(text, text, { maxKeys: 3 }) },
);
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

/** Every character of every string as a `\u` escape, as some servers write JSON. */
const escapeAll = (v: unknown): string =>
  JSON.stringify(v).replace(/"(?:[^"\\]|\\.)*"/g, (s) =>
    [...(JSON.parse(s) as string)]
      .flatMap((ch) => [...ch].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`))
      .reduce((a, b) => a + b, '"')
      .concat('"'),
  );
/** How a body is written: the text, and the bytes sent (some with bytes no text has). */
const writer = fc.constantFrom(
  (v: unknown) => JSON.stringify(v),
  (v: unknown) => JSON.stringify(v, null, 2),
  (v: unknown) => escapeAll(v),
  (v: unknown) => JSON.stringify(v).replaceAll('/', '\\/'),
  (v: unknown) => JSON.stringify(v).replace(/"(?=[^"]*"$)/, '\u007f"'),
);

describe('a reply whose strings are all printable ASCII', () => {
  it('the bytes pass only when every string JSON.parse reads from them is printable ASCII (property)', () => {
    let passed = 0;
    fc.assert(
      fc.property(fc.array(item, { maxLength: 4 }), writer, (lines, write) => {
        const body = write(pageOf(lines));
        const bytes = Buffer.from(body, 'utf8');
        if (!jsonStringsPrintable(bytes)) return;
        passed++;
        for (const s of strings(JSON.parse(bytes.toString('utf8')))) {
          expect(s).toMatch(PRINTABLE);
          expect(sanitize(s)).toBe(s);
        }
      }),
      { numRuns: 3_000 },
    );
    // The fast path is taken, not only refused.
    expect(passed).toBeGreaterThan(300);
  });

  it('the bytes that pass, and those that do not', () => {
    const pass = (s: string | Buffer) => jsonStringsPrintable(typeof s === 'string' ? Buffer.from(s) : s);
    expect(pass('{"a":"b c~/","n":[1,true,null]}')).toBe(true);
    expect(pass('{\n  "a": "b",\r\n\t"c": 1\n}')).toBe(true); // whitespace between tokens only
    expect(pass('')).toBe(true);
    for (const s of [
      '"\\u001b"',
      '"\\n"',
      '"\\t"',
      '"\\u2028"',
      '"\\udb40\\udc41"',
      '"\\""',
      '"\\\\"',
      '"\\/"',
    ])
      expect([s, pass(s)]).toEqual([s, false]);
    for (const s of [
      '"\u007f"',
      '"\u0080"',
      '"\u009b"',
      '"é"',
      '"\u2028"',
      '"\u202e"',
      '"\u{E0041}"',
      '"\ufeff"',
    ])
      expect([s, pass(s)]).toEqual([s, false]);
    expect(pass(Buffer.from([0x22, 0xff, 0x22]))).toBe(false); // not UTF-8: read as U+FFFD
    expect(pass(Buffer.from([0x22, 0xc2, 0x9b, 0x22]))).toBe(false); // U+009B, the one-byte CSI
    // Every printable ASCII character is one the rule keeps.
    for (let c = 0x20; c <= 0x7e; c++) expect(sanitize(String.fromCharCode(c))).toBe(String.fromCharCode(c));
  });

  it('a page read without sanitizing is the page read string by string, and the page zod alone reads (property)', () => {
    let passed = 0;
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), writer, (lines, write) => {
        const bytes = Buffer.from(write(pageOf(lines)), 'utf8');
        const printable = jsonStringsPrintable(bytes);
        if (printable) passed++;
        const body = JSON.parse(bytes.toString('utf8'));
        const fast = safeParseTiered(LinesPage, body, printable);
        const slow = safeParseTiered(LinesPage, body, false);
        expect(fast).toStrictEqual(slow);
        expect(fast).toStrictEqual(unwrapLazy(LinesPage).safeParse(body));
      }),
      { numRuns: 2_000 },
    );
    expect(passed).toBeGreaterThan(200);
  });
});

describe('through the transport', () => {
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await close?.();
    close = null;
  });

  it('a reply with an escaped control is sanitized, a printable one read as it is', async () => {
    const line = (username: string) => ({
      id: 'a',
      hostname: null,
      username,
      password: 'p',
      label: 'x',
      enabled: true,
      connections: 1,
      is_trial: false,
      exp_date: null,
      start_date: null,
      created_at: null,
    });
    const server = await scriptedServer((req, res) => {
      const hostile = req.url.includes('offset=1');
      json(res, 200, pageOf([line(hostile ? 'u\u001b]52;c;aGk=\u0007\u{E0041}' : 'u~ /x')]));
    });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    close = async () => {
      await client.close();
      await server.close();
    };
    expect((await client.listLines({ limit: 1, offset: 0 })).lines[0]!.username).toBe('u~ /x');
    expect((await client.listLines({ limit: 1, offset: 1 })).lines[0]!.username).toBe(
      `u${PLACEHOLDER}]52;c;aGk=${PLACEHOLDER}${PLACEHOLDER}`,
    );
  });
});
