/** Parsing and option rules of the headless commands: pure, no process, no server. */
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli-args';
import { COMMAND_NAMES } from '../../src/commands/spec';
import { parseDays, parseHeadless } from '../../src/headless/args';
import { changeParams } from '../../src/headless/commands/change-params';
import { linesRequest } from '../../src/headless/commands/lines';
import { parsePeriodEdge } from '../../src/services/changes/journal-filter';

describe('headless parsing', () => {
  it('a subcommand goes to the headless commands; anything else stays the app', () => {
    for (const name of COMMAND_NAMES) expect(parseCli([name])).toEqual({ kind: 'headless', argv: [name] });
    expect(parseCli(['--read-only'])).toMatchObject({ kind: 'app' });
    expect(parseCli(['sandbox'])).toMatchObject({ kind: 'sandbox' });
  });

  it('the target flags may come before the command name, as for the app', () => {
    expect(parseCli(['--sandbox', 'lines', '--json'])).toEqual({
      kind: 'headless',
      argv: ['lines', '--json', '--sandbox'],
    });
    expect(parseCli(['--profile', 'shop', '--read-only', 'account'])).toEqual({
      kind: 'headless',
      argv: ['account', '--profile', 'shop', '--read-only'],
    });
    expect(parseCli(['--base-url=https://p.example.com', 'lines'])).toEqual({
      kind: 'headless',
      argv: ['lines', '--base-url=https://p.example.com'],
    });
    expect(parseHeadless(['lines', '--sandbox', '--read-only'])).toMatchObject({
      kind: 'run',
      target: { sandbox: true },
    });
    expect(parseHeadless(['extend', 'bob', '--read-only', '--yes'])).toMatchObject({
      kind: 'usage',
      path: ['read-only'],
    });
    // Anything else before the name is still the app's error.
    expect(parseCli(['--json', 'lines'])).toMatchObject({ kind: 'error' });
  });

  it('options, formats and the target flags', () => {
    expect(parseHeadless(['lines', '--status', 'expiring', '--ndjson', '--profile', 'shop'])).toMatchObject({
      kind: 'run',
      command: 'lines',
      format: 'ndjson',
      values: { status: 'expiring' },
      target: { profile: 'shop', baseUrl: null, sandbox: false },
    });
    expect(parseHeadless(['extend', 'bob', '-y'])).toMatchObject({
      kind: 'run',
      args: ['bob'],
      values: { yes: true },
    });
    expect(parseHeadless(['lines', '--json', '--csv'])).toMatchObject({ kind: 'usage' });
    expect(parseHeadless(['lines', '--sandbox', '--profile', 'x'])).toMatchObject({
      kind: 'usage',
      message: expect.stringMatching(/cannot be used together/),
    });
    expect(parseHeadless(['account', 'extra'])).toMatchObject({
      kind: 'usage',
      message: expect.stringMatching(/unexpected argument extra/),
    });
    expect(parseHeadless(['lines', '--colour'])).toMatchObject({
      kind: 'usage',
      message: 'unknown option --colour',
    });
    expect(parseHeadless(['extend', 'bob', '--stdin'])).toMatchObject({ kind: 'usage' });
    expect(parseHeadless(['extend'])).toMatchObject({ kind: 'usage' });
    expect(parseHeadless(['line'])).toMatchObject({
      kind: 'usage',
      message: expect.stringMatching(/ID\|USERNAME is missing/),
    });
    expect(parseHeadless(['message', 'reminder'])).toMatchObject({ kind: 'usage' });
    // The journal shows one account's entries: the target flags choose it (issue 24).
    expect(parseHeadless(['journal', '--profile', 'x'])).toMatchObject({
      kind: 'run',
      target: { profile: 'x' },
    });
    expect(parseHeadless(['create', '--stdin'])).toMatchObject({ kind: 'usage' });
    expect(parseHeadless(['lines', '--help'])).toMatchObject({
      kind: 'help',
      text: expect.stringContaining('Examples:'),
    });
  });

  it('lines: status, type, sort and limit, each refused by name', () => {
    const r = linesRequest({ sort: 'expiry:desc', status: 'expired', search: ' smith ' }, 'table');
    expect(r).toMatchObject({
      query: { orderBy: 'exp_date', orderType: 'desc', status: 'expired', search: 'smith' },
      limit: 20,
    });
    expect(linesRequest({}, 'ndjson')).toMatchObject({ limit: null });
    expect(linesRequest({ all: true }, 'json')).toMatchObject({ limit: null });
    expect(linesRequest({ sort: 'price' }, 'table')).toMatchObject({ path: ['sort'], exit: 2 });
    expect(linesRequest({ sort: 'id:up' }, 'table')).toMatchObject({ path: ['sort'] });
    expect(linesRequest({ limit: '0' }, 'table')).toMatchObject({ path: ['limit'] });
    expect(linesRequest({ type: 'gold' }, 'table')).toMatchObject({ path: ['type'] });
    expect(linesRequest({ fields: 'id,nope' }, 'csv')).toMatchObject({ path: ['fields'] });
  });

  it('changes: the form rules, each failure at its field', () => {
    expect(changeParams('extend', {})).toMatchObject({ months: 1 });
    expect(changeParams('extend', { months: '2' })).toMatchObject({ path: ['months'], exit: 2 });
    expect(changeParams('upgrade', {})).toMatchObject({ path: ['connections'] });
    expect(changeParams('upgrade', { connections: '7' })).toMatchObject({ path: ['connections'] });
    // The path names the option given (--months, --hours), whatever the form calls the field.
    expect(changeParams('create', {})).toMatchObject({ path: ['months'] });
    expect(changeParams('create', { months: '2' })).toMatchObject({ path: ['months'] });
    expect(changeParams('trial', { hours: '6' })).toMatchObject({ path: ['hours'] });
    expect(changeParams('create', { months: '1', username: 'short' })).toMatchObject({
      code: 'invalid_field',
      path: ['username'],
      message: expect.stringMatching(/^--username: /),
    });
    expect(changeParams('create', { months: '1', label: 'x'.repeat(31) })).toMatchObject({ path: ['label'] });
    expect(changeParams('create', { months: '1', bouquets: '1,two' })).toMatchObject({ path: ['bouquets'] });
    expect(
      changeParams('create', {
        months: '3',
        connections: '2',
        bouquets: '4, 2,4',
        disabled: true,
        'parental-code': '1234',
      }),
    ).toMatchObject({
      months: 3,
      connections: 2,
      form: { bouquets: [4, 2], enabled: false, parental_code: '1234', connections: 2 },
    });
  });

  it('days and dates', () => {
    expect(parseDays('7d')).toBe(7);
    expect(parseDays('14 days')).toBe(14);
    expect(parseDays('0')).toBeNull();
    expect(parseDays('soon')).toBeNull();
    const now = new Date(2026, 10, 25, 12).getTime();
    expect(parsePeriodEdge('2026-11-01', 'since', now)).toBe(new Date(2026, 10, 1).getTime());
    expect(parsePeriodEdge('2026-11-01T08:00:00Z', 'since', now)).toBe(Date.parse('2026-11-01T08:00:00Z'));
    expect(parsePeriodEdge('last week', 'since', now)).toBeNull();
  });
});
