/**
 * `line USERNAME` when the server lists that line in a form that does not read: the line is there
 * (its item names it), so it is neither "not found" nor "not looked up because the lookup stopped":
 * the error says the server sent it in a form that does not read.
 */
import { describe, expect, it } from 'vitest';
import { broken, withBrokenItem, withNamelessLine } from '../helpers/broken-item';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { listOnlyServer } from '../helpers/scripted-server';

const good = {
  id: '0b6f5a8e-2f0b-4c43-9d5e-3f1f5a0c0001',
  hostname: 'h',
  username: 'readable0001',
  password: 'p'.repeat(14),
  label: '',
  enabled: true,
  connections: 1,
  is_trial: false,
  exp_date: '2027-06-02T09:46:43.000Z',
  start_date: '2026-06-02T09:46:43.000Z',
  created_at: '2026-06-02T09:46:43.000Z',
};
const bad = {
  ...good,
  id: '0b6f5a8e-2f0b-4c43-9d5e-3f1f5a0c0002',
  username: 'brokenline01',
  connections: 'x',
};

describe('line: a line the server sends in a form that does not read', () => {
  it('is said so, never that the lookup stopped before the end of the list', async () => {
    const srv = await listOnlyServer((s) => [good, bad].filter((l) => !s || l.username.includes(s)));
    try {
      const env = envFor(srv.baseUrl, 'k'.repeat(32));
      const r = await headless(['line', 'brokenline01', '--json'], { env });
      expect(r.code).toBe(1);
      const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;
      expect(err.code).not.toBe('line_not_found');
      expect(err.message).not.toMatch(/stopped before/);
      expect(err.message).toMatch(/"brokenline01" .*does not read/);
      // Not proven absent: the one code for it, as a line of --stdin gets (docs/SCRIPTING.md).
      expect(err.code).toBe('line_unsettled');
    } finally {
      await srv.close();
    }
  });

  it('of a username longer than the 60 characters a row shows: matched whole, never "not found"', async () => {
    const { sb } = await sandbox({ lines: 40 });
    const long = `brokenline${'x'.repeat(70)}`;
    const srv = await withBrokenItem(sb.baseUrl, () => ({ ...broken, username: long }));
    try {
      const env = envFor(srv.baseUrl, DEMO_KEY);
      const r = await headless(['line', long, '--json'], { env });
      const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;
      expect(err.code).toBe('line_unsettled');
      expect(err.message).toBe(
        `"${long}" was not readable (listed by the server in a form that does not read)`,
      );
      // Where it is shown it is cut: the listing names it by its first 60 characters.
      const listed = await headless(['lines', '--limit', '100', '--json'], { env });
      expect(listed.stderr).toContain(`Left out: unreadable line ${long.slice(0, 60)}…: connections`);
    } finally {
      await srv.close();
    }
  });

  it('whose id does not read: a name no line that reads has may be it, said so (not "not readable")', async () => {
    const { sb, client } = await sandbox({ lines: 40 });
    const [line] = (await client.listLines({ offset: 3, limit: 1 })).lines;
    const srv = await withNamelessLine(sb.baseUrl, line!.id);
    try {
      const env = envFor(srv.baseUrl, DEMO_KEY);
      const r = await headless(['line', 'zz-nobody', '--json'], { env });
      const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;
      expect(err.code).toBe('line_unsettled');
      expect(err.message).toBe(
        '"zz-nobody" was not identified (it may be the line the server listed in a form that does not read)',
      );
      // Its username still reads: that name is a line there, unread.
      const named = await headless(['line', line!.username, '--json'], { env });
      expect(JSON.parse(named.stderr.trim().split('\n').at(-1)!).error.message).toBe(
        `"${line!.username}" was not readable (listed by the server in a form that does not read)`,
      );
    } finally {
      await srv.close();
    }
  });
});
