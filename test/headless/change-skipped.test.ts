/**
 * A single change whose line changed between its lookup and the send (more than a minute apart, so it
 * is read again) is not sent: exit 1, the reason on stderr, nothing charged by this command.
 */
import { describe, expect, it } from 'vitest';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless } from '../helpers/headless';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';

describe('a single change skipped', () => {
  it('extend: the line was extended elsewhere since it was looked up over a minute ago: exit 1, nothing sent', async () => {
    const { sb, client } = await sandbox({ lines: 40 });
    const [line] = (await client.listLines({ offset: 0, limit: 1, status: 'active', type: 'premium' })).lines;
    let late = 0;
    let lists = 0;
    const proxy = await faultProxy(sb.baseUrl, {
      onList: async (n) => {
        lists = n;
        // The lookup (list request 1) is answered; the command's clock then says over a minute has
        // passed, so the line is read again before the send (request 2), and meanwhile someone else
        // extended it.
        if (n === 1) late = 61_000;
        if (n === 2) await client.extendLine({ id: line!.id, duration: 1 });
      },
    });
    const r = await headless(['extend', line!.id, '--months', '1', '--yes'], {
      env: envFor(proxy.baseUrl, DEMO_KEY),
      now: () => Date.now() + late,
    });
    expect(lists).toBe(2);
    expect(r.code).toBe(1);
    // The command looked the line up, it showed nothing: its words say so (the screens say "shown").
    expect(r.stderr).toMatch(
      /Not sent: changed since it was looked up \(its expiry moved[^\n]*nothing charged/,
    );
    expect(`${r.stdout}${r.stderr}`).not.toContain('since it was shown');
    expect(r.stdout).toMatch(new RegExp(`${line!.username}\tskipped\t\t`));
    // The one charge is the other extend's: this command sent nothing.
    expect(books(sb).ledger).toHaveLength(1);
  });
});
