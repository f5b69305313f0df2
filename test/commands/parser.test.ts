/**
 * One parser for both front-ends: the same words after a command's name give the same values, or
 * the same error text, on the command line (parseHeadless) and in the `:` palette (parsePalette).
 */
import { describe, expect, it } from 'vitest';
import { parsePalette } from '../../src/commands/palette';
import { parseHeadless } from '../../src/headless/args';

interface Row {
  readonly command: string;
  readonly words: readonly string[];
  /** What the command line needs beside them that the palette takes from the screen (the line). */
  readonly cliOnly?: readonly string[];
  readonly values?: Record<string, string>;
  readonly error?: string;
}

const STATUSES = 'all, active, suspended, expiring, expired';
const ROWS: readonly Row[] = [
  { command: 'lines', words: ['--status', 'expiring'], values: { status: 'expiring' } },
  { command: 'lines', words: ['--status', 'EXPIRED'], values: { status: 'expired' } },
  { command: 'lines', words: ['--status', 'bogus'], error: `--status takes ${STATUSES}, not "bogus"` },
  {
    command: 'lines',
    words: ['--type', 'trial', '--search', 'smith'],
    values: { type: 'trial', search: 'smith' },
  },
  { command: 'lines', words: ['--sort', 'expiry:desc'], values: { sort: 'expiry:desc' } },
  {
    command: 'lines',
    words: ['--sort', 'colour'],
    error: '--sort takes id, username, enabled or expiry, then :asc or :desc (expiry:desc)',
  },
  { command: 'lines', words: ['--colour'], error: 'unknown option --colour' },
  { command: 'lines', words: ['--status'], error: 'option --status needs a value' },
  { command: 'renewals', words: ['14', '30'], values: { within: '14', expired: '30' } },
  { command: 'renewals', words: ['--expired', '30', '14'], values: { within: '14', expired: '30' } },
  { command: 'renewals', words: ['--within', '7d'], values: { within: '7d' } },
  {
    command: 'renewals',
    words: ['0'],
    error: 'renewals: days are whole numbers from 1 to 365 (renewals 14 30)',
  },
  {
    command: 'renewals',
    words: ['--within', 'soon'],
    error: '--within takes a number of days from 1 to 365 (7d)',
  },
  { command: 'renewals', words: ['14', '--within', '3'], error: 'give DAYS or --within, not both' },
  { command: 'extend', words: ['--months', '3'], cliOnly: ['bob'], values: { months: '3' } },
  {
    command: 'extend',
    words: ['--months', '2'],
    cliOnly: ['bob'],
    error: '--months takes 1, 3, 6, 12, not "2"',
  },
  { command: 'upgrade', words: ['--connections', '3'], cliOnly: ['bob'], values: { connections: '3' } },
  {
    command: 'upgrade',
    words: ['--connections', '9'],
    cliOnly: ['bob'],
    error: '--connections takes 1, 2, 3, 4, 5, 6, not "9"',
  },
  { command: 'line', words: ['smith0042'], values: {} },
];

describe('the command line and the palette read the same words the same way', () => {
  for (const row of ROWS) {
    it(`${row.command} ${row.words.join(' ')}`, () => {
      const cli = parseHeadless([row.command, ...(row.cliOnly ?? []), ...row.words]);
      const palette = parsePalette([row.command, ...row.words].join(' '));
      if (row.error) {
        expect(cli).toMatchObject({ kind: 'usage', message: row.error });
        expect(palette).toEqual({ ok: false, error: row.error });
      } else {
        expect(cli).toMatchObject({ kind: 'run', values: row.values });
        expect(palette).toMatchObject({ ok: true, name: row.command, values: row.values });
      }
    });
  }

  it('a positional is read alike: line USER on both', () => {
    expect(parseHeadless(['line', 'smith0042'])).toMatchObject({ kind: 'run', args: ['smith0042'] });
    expect(parsePalette('line smith0042')).toMatchObject({ ok: true, args: ['smith0042'] });
    expect(parsePalette('line')).toEqual({
      ok: false,
      error: 'ID|USERNAME is missing (usage: line ID|USERNAME)',
    });
  });

  it('what only a script does is refused on the palette by name: the dialog confirms, the screen shows', () => {
    expect(parsePalette('extend --months 3 --yes')).toEqual({
      ok: false,
      error: '--yes is for the command line',
    });
    expect(parsePalette('lines --json')).toEqual({ ok: false, error: '--json is for the command line' });
    expect(parsePalette('extend bob')).toMatchObject({
      ok: false,
      error: expect.stringContaining('unexpected argument bob'),
    });
  });

  it('a checked value the command line took as typed is refused there too (pending --as)', () => {
    expect(parseHeadless(['pending', '--settle', 'bob', '--as', 'aplied', '--confirm', 'bob'])).toMatchObject(
      {
        kind: 'usage',
        message: '--as takes applied, not-applied, not "aplied"',
        path: ['as'],
      },
    );
  });
});
