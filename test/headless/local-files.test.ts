import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headless, homeDirs } from '../helpers/headless';

const good = {
  opId: 'j1:l1',
  time: '2026-11-22T10:00:00.000Z',
  target: 'http://127.0.0.1:7411',
  operation: 'extend',
  lineId: 'l1',
  username: 'someuser0001',
  quotedCost: 3,
  estimate: true,
  deducedCredits: 3,
  newBalance: 97,
  outcome: 'applied',
};

describe('local files that are not what we wrote (issue 23)', () => {
  it('journal lines of the wrong shape ({}, null, 42, a string) are named and skipped; the good one is listed', async () => {
    const home = homeDirs();
    mkdirSync(home.LINEDESK_DATA_DIR, { recursive: true });
    writeFileSync(
      join(home.LINEDESK_DATA_DIR, 'journal.jsonl'),
      [
        '{}',
        'null',
        '42',
        '"text"',
        JSON.stringify({ ...good, operation: 7 }),
        JSON.stringify(good),
        '',
      ].join('\n'),
    );
    // An earlier version's entry names the service's URL alone: left out of one account, said (issue 24).
    expect((await headless(['journal'], { env: home })).stderr).toMatch(/left out: 1 naming no account/);
    const r = await headless(['journal', '--all-accounts'], { env: home });
    expect(r.stderr).not.toContain('Unexpected error');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('someuser0001');
    expect(r.stderr).toMatch(/journal\.jsonl: 5 lines skipped/);
    expect(r.stderr).toMatch(/line 1\b/);
    const json = await headless(['journal', '--json', '--all-accounts'], { env: home });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).entries).toEqual([good]);
  });
});

describe('directories that are not what we assumed (issue 23)', () => {
  /** A regular file where a directory should be, and a path under it (ENOTDIR even for root). */
  const broken = () => {
    const home = homeDirs();
    const root = join(home.LINEDESK_DATA_DIR, '..');
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a directory');
    return { home, file, under: join(file, 'linedesk') };
  };

  it('a config directory that is a file: account refuses, names the path and LINEDESK_CONFIG_DIR, never runs on the sandbox', async () => {
    const { home, file } = broken();
    const r = await headless(['account'], { env: { ...home, LINEDESK_CONFIG_DIR: file } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`the config directory ${file} is a file, not a directory`);
    expect(r.stderr).toContain('LINEDESK_CONFIG_DIR');
    expect(r.stderr).not.toMatch(/sandbox/i);
  });

  it('a data directory that cannot be created: account refuses in a sentence naming the path and LINEDESK_DATA_DIR', async () => {
    const { home, file, under } = broken();
    const r = await headless(['account'], { env: { ...home, LINEDESK_DATA_DIR: under } });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('Unexpected error');
    expect(r.stderr).toContain(
      `the data directory ${under} cannot be created: ${file} is a file, not a directory`,
    );
    expect(r.stderr).toContain('LINEDESK_DATA_DIR');
    const journal = await headless(['journal'], { env: { ...home, LINEDESK_DATA_DIR: under } });
    expect(journal.code).toBe(2);
    expect(journal.stderr).toContain('LINEDESK_DATA_DIR');
  });

  it('commands that need no local state still run: completion, --help', async () => {
    const { file, under } = broken();
    const env = { LINEDESK_CONFIG_DIR: file, LINEDESK_DATA_DIR: under, LINEDESK_STATE_DIR: under };
    const completion = await headless(['completion', 'bash'], { env });
    expect(completion.code).toBe(0);
    expect(completion.stdout).toContain('linedesk');
    const help = await headless(['account', '--help'], { env });
    expect(help.code).toBe(0);
  });
});
