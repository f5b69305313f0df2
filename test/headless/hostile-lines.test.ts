/**
 * A server's strings reach `lines` output only sanitized (issue 27 moved the listing's sanitizing
 * into faster paths: an `overwrite`, a string with nothing forbidden returned as it is, the
 * canonical date read before sanitizing, rows made field by field): whatever a server puts in any field of a line, no
 * control character, C1 control, escape sequence, bidi override, line separator, zero-width or
 * tag character is printed, in any format, and no field is dropped or renamed.
 */
import { describe, expect, it } from 'vitest';
import { LINE_FIELDS } from '../../src/headless/format';
import { envFor, headless } from '../helpers/headless';
import { listOnlyServer } from '../helpers/scripted-server';

/** Everything sanitize() replaces, one of each kind, and two whole sequences. */
const HOSTILE = [
  '\u0000',
  '\u0007',
  '\t',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u009d',
  '\u061c',
  '\u200b',
  '\u200f',
  '\u2028',
  '\u2029',
  '\u202e',
  '\u2066',
  '\u2069',
  '\ufeff',
  '\u180e',
  '\ufff9',
  '\u{E0041}',
  '\u{E007F}',
  '\u001b]52;c;cm0gLXJm\u0007',
  '\u001b[2J',
].join('x');
/** What a terminal could act on, newline aside (each format separates its lines with it). */
const ACTIVE =
  /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\uFEFF\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]/;

/** Each text field hostile, a date in the canonical form but for one character, and one in another dialect. */
const hostileLine = (i: number) => ({
  id: `id-${i}${HOSTILE}`,
  hostname: `h${HOSTILE}`,
  username: `u${i}${HOSTILE}`,
  password: `p${HOSTILE}`,
  label: `l${HOSTILE}`,
  enabled: 'true',
  connections: '2',
  is_trial: false,
  exp_date: '2027-06-02T09:46:43\u001b000Z',
  start_date: `2027-06-02T09:46:43.000Z${HOSTILE}`,
  created_at: `Tue Dec 03 2024 18:44:34 GMT+0100 (\u202eGMT\u001b]0;t\u0007)`,
});

describe('lines from a hostile server', () => {
  it('print nothing that could act on the terminal, in any format, every field present', async () => {
    const lines = [0, 1, 2].map(hostileLine);
    const srv = await listOnlyServer(() => lines);
    try {
      const env = envFor(srv.baseUrl, 'k'.repeat(32));
      const fields = LINE_FIELDS.join(',');
      for (const format of ['--ndjson', '--json', '--csv']) {
        const r = await headless(['lines', '--all', format, '--fields', fields], { env });
        expect(r.code, format).toBe(0);
        expect(r.stdout, format).not.toMatch(ACTIVE);
        expect(r.stderr, format).not.toMatch(ACTIVE);
        // The placeholder stands where each hostile character was: nothing was dropped instead.
        expect(r.stdout.split('\uFFFD').length, format).toBeGreaterThan(3 * 5 * 20);
      }
      const rows = (await headless(['lines', '--all', '--ndjson', '--fields', fields], { env })).stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        expect(Object.keys(row)).toStrictEqual([...LINE_FIELDS]);
        for (const v of Object.values(row)) if (typeof v === 'string') expect(v).not.toMatch(ACTIVE);
      }
      // Read as before: a canonical date with a character changed is not a date (kept as its
      // sanitized text); the Date.toString form is read by its offset.
      expect(rows[0]!.exp_date).toBe('2027-06-02T09:46:43\uFFFD000Z');
      expect(rows[0]!.created_at).toBe('2024-12-03T17:44:34.000Z');
    } finally {
      await srv.close();
    }
  });
});
