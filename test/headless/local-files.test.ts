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
    const r = await headless(['journal'], { env: home });
    expect(r.stderr).not.toContain('Unexpected error');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('someuser0001');
    expect(r.stderr).toMatch(/journal\.jsonl: 5 lines skipped/);
    expect(r.stderr).toMatch(/line 1\b/);
    const json = await headless(['journal', '--json'], { env: home });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).entries).toEqual([good]);
  });
});
