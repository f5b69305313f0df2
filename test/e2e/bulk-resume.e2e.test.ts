import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { type CommandId, command } from '../../src/commands/keymap';
import { keyBytes } from '../helpers/app';
import { spawnSandbox } from '../helpers/bundle';
import { spawnApp } from '../helpers/pty';
import { interruptAndResume } from './interrupt';

const key = (id: CommandId) => keyBytes(command(id).keys[0]!);
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

describe('a bulk job survives the process being killed', () => {
  it('kill -9 in the middle of a job, start again, resume: every line charged exactly once', async () => {
    const { child, info } = await spawnSandbox(['--lines', '40', '--faults', 'latency=60-120']);
    cleanups.push(() => child.kill());
    const apiKey = info.accounts[0]!.apiKey;
    const client = createClient({ baseUrl: info.baseUrl, apiKey });
    cleanups.push(() => void client.close());
    const premium = (await client.listLines({ limit: 100, type: 'premium' })).lines;
    const expected = premium.reduce((sum, l) => sum + l.connections, 0); // 1 month: connections credits each
    const opening = (await client.me()).credits;

    const dir = mkdtempSync(join(tmpdir(), 'ld-resume-'));
    const env = {
      LINEDESK_BASE_URL: info.baseUrl,
      LINEDESK_API_KEY: apiKey,
      LINEDESK_DATA_DIR: dir,
      LINEDESK_STATE_DIR: dir,
    };
    const first = spawnApp([], env);
    cleanups.push(first.cleanup);
    await first.waitFor((s) => /1–\d+ of 40/.test(s));
    first.write(key('lines.filterType')); // premium
    await first.waitFor((s) => s.includes('type premium') && !s.includes('loading'));
    first.write(key('lines.markAll'));
    await first.waitFor((s) => s.includes(`${premium.length} marked`));
    first.write(key('line.extend'));
    await first.waitFor((s) => s.includes('Enter starts'));
    first.write(key('bulk.start'));
    await first.waitFor((s) => /done [3-9] /.test(s) || /done 1\d /.test(s));
    first.child.kill('SIGKILL');
    await first.waitExit();

    const second = spawnApp([], env);
    cleanups.push(second.cleanup);
    await second.waitFor(
      // Offered once the dialog has been on screen for the arm delay: an Enter sooner is held.
      (s) => s.includes('Changes left open') && s.includes('Enter resumes') && !s.includes('Checking'),
    );
    second.write(key('resume.yes'));
    await second.waitFor((s) => s.includes('Finished'), 30_000);
    // A line in flight at the kill may never have left: it is checked, reported "not applied", and
    // retried only when asked (quoted again first), never blindly.
    if (!/failed 0 /.test(second.screen())) {
      second.write(key('bulk.retry'));
      await second.waitFor((s) => s.includes('Enter starts'));
      second.write(key('bulk.start'));
      await second.waitFor((s) => s.includes('Finished') && /failed 0 /.test(s), 30_000);
    }
    // Every premium line extended exactly once: the balance fell by exactly one month of each.
    expect((await client.me()).credits).toBe(opening - expected);
    const after = (await client.listLines({ limit: 100, type: 'premium' })).lines;
    const DAY = 86_400_000;
    for (const l of after) {
      const was = premium.find((p) => p.id === l.id)!;
      const from = Math.max(Date.now(), was.exp_date!.ms!);
      expect(Math.abs(l.exp_date!.ms! - from) / DAY).toBeLessThan(32); // one month, not two
    }
    second.write(key('bulk.close'));
    await second.waitFor((s) => s.includes('USERNAME'));
    second.write(key('app.quit'));
    await second.waitExit();
  }, 60_000);

  // The whole matrix (q, SIGINT, SIGTERM, SIGHUP, kill -9 too) runs in `npm run soak`
  // (interrupt-matrix.e2e.test.ts); these two are the ways a reseller meets most.
  for (const way of ['Ctrl-C twice', 'pty closed'] as const) {
    it(`${way} during a job at a rate limit: the next start offers the unsent lines marked, the resume charges each line once`, async () => {
      const r = await interruptAndResume(way, cleanups);
      expect(r.sentBefore).toBeGreaterThan(0);
      expect(r.sentBefore).toBeLessThan(r.lines);
      expect(r.offered).toBe(r.lines - r.sentBefore); // the dialog's count is the ledger's
      expect(r.marked).toBe(r.offered);
      expect(r.chargesPerLine).toEqual(Array.from({ length: r.lines }, () => 1));
      expect(r.stray).toBe(0);
    }, 90_000);
  }
});
