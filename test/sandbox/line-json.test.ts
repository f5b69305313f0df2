import fc from 'fast-check';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { isoString, listItemJson } from '../../src/sandbox/line-json';
import type { LineRow } from '../../src/sandbox/repo';
import { listForm } from '../../src/sandbox/service';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

// A page is written as text (line-json.ts): it must be byte for byte what JSON.stringify printed
// for the list form's objects, whatever the row holds.
const MAX_DATE_MS = 8.64e15;

describe('a page of lines written as JSON text', () => {
  it('isoString is toISOString for every millisecond of Date’s range', () => {
    const edges = [
      0,
      -1,
      1,
      86_399_999,
      86_400_000,
      -62_167_219_200_000,
      -62_167_219_200_001,
      253_402_300_799_999,
      253_402_300_800_000,
      951_782_400_000,
      4_107_542_400_000,
      -2_203_891_200_000,
      MAX_DATE_MS,
      -MAX_DATE_MS,
      1.5,
      -0.5,
      1_700_000_000_000.25,
    ];
    for (const ms of edges) expect(isoString(ms), String(ms)).toBe(new Date(ms).toISOString());
    fc.assert(
      fc.property(fc.integer({ min: -MAX_DATE_MS, max: MAX_DATE_MS }), (ms) => {
        expect(isoString(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 10_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        expect(isoString(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 10_000 },
    );
  });

  it('listItemJson prints what JSON.stringify(listForm(row)) printed', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('"', '\\', '\u001b]0;x\u0007', '\ud800', 'é\u2028'),
    );
    const date = fc.option(fc.integer({ min: -MAX_DATE_MS, max: MAX_DATE_MS }), { nil: null });
    const row = fc.record({
      id: text,
      hostname: fc.option(text, { nil: null }),
      username: text,
      password: text,
      label: text,
      enabled: fc.integer({ min: 0, max: 1 }),
      connections: fc.integer({ min: 1, max: 6 }),
      is_trial: fc.integer({ min: 0, max: 1 }),
      exp_date: date,
      start_date: date,
      created_at: date,
    });
    fc.assert(
      fc.property(row, (r) => {
        const asArray = [7, r.id, r.hostname, r.username, r.password, r.label, r.enabled, r.connections];
        asArray.push(r.is_trial, r.exp_date, r.start_date, r.created_at);
        const full = { ...r, account_id: 1, macaddress: null, parental_code: null } as LineRow;
        expect(listItemJson(asArray)).toBe(JSON.stringify(listForm(full)));
      }),
      { numRuns: 500 },
    );
  });

  it('GET /v1/lines/all is the envelope and list forms JSON.stringify printed, in the list’s order', async () => {
    const { sb } = await sandbox({ lines: 40 });
    const rows = sb.repo.db
      .prepare('SELECT * FROM lines WHERE account_id = 1 ORDER BY username DESC, id DESC')
      .all() as unknown as LineRow[];
    // A label a server could send: quotes, a backslash, an escape sequence (sanitized by the app, not here).
    sb.repo.db.prepare('UPDATE lines SET label = ? WHERE id = ?').run('"a\\b\u001b[2J"', rows[3]!.id);
    rows[3]!.label = '"a\\b\u001b[2J"';
    sb.repo.db.prepare('UPDATE lines SET hostname = NULL, exp_date = NULL WHERE id = ?').run(rows[4]!.id);
    rows[4]!.hostname = null;
    rows[4]!.exp_date = null;
    const res = await request(
      `${sb.baseUrl}/v1/lines/all?limit=10&offset=2&orderBy=username&orderType=desc`,
      {
        headers: { 'x-api-key': DEMO_KEY },
      },
    );
    const expected = {
      offset: 2,
      limit: 10,
      totalHits: rows.length,
      totalReturns: 10,
      hasNextPage: true,
      hasPreviousPage: true,
      nextOffset: 12,
      previousOffset: 0,
      lines: rows.slice(2, 12).map(listForm),
    };
    expect(await res.body.text()).toBe(JSON.stringify(expected));
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
