import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { type CommandId, command } from '../../src/keys/keymap';
import { keyBytes } from '../helpers/app';
import { spawnSandbox } from '../helpers/bundle';
import { spawnApp } from '../helpers/pty';

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

  for (const how of ['Ctrl-C', 'SIGHUP'] as const) {
    it(`${how} during a running job: the screen is restored and the process exits; no line charged twice`, async () => {
      const { child, info } = await spawnSandbox(['--lines', '40', '--faults', 'latency=80-160']);
      cleanups.push(() => child.kill());
      const apiKey = info.accounts[0]!.apiKey;
      const client = createClient({ baseUrl: info.baseUrl, apiKey });
      cleanups.push(() => void client.close());
      const opening = (await client.me()).credits;
      const dir = mkdtempSync(join(tmpdir(), 'ld-stop-'));
      const env = {
        LINEDESK_BASE_URL: info.baseUrl,
        LINEDESK_API_KEY: apiKey,
        LINEDESK_DATA_DIR: dir,
        LINEDESK_STATE_DIR: dir,
      };
      const app = spawnApp([], env);
      cleanups.push(app.cleanup);
      await app.waitFor((s) => /1–\d+ of 40/.test(s));
      app.write(key('lines.markAll'));
      await app.waitFor((s) => s.includes('40 marked'));
      app.write(key('line.extend'));
      await app.waitFor((s) => s.includes('Enter starts'));
      app.write(key('bulk.start'));
      await app.waitFor((s) => /done [1-9]/.test(s));
      if (how === 'Ctrl-C') app.write('\u0003');
      else app.child.kill('SIGHUP');
      await app.waitExit(); // it used to keep running, retrying against a closed client
      expect(app.output()).toContain('\u001b[?1049l'); // the alternate screen was left
      const lines = (await client.listLines({ limit: 100 })).lines;
      expect(lines.length).toBe(40);
      // The job's own view of what it sent is on disk; a new start finds nothing left to check
      // twice and no line was charged more than once (extend by 1 month: one charge per line).
      const spent = opening - (await client.me()).credits;
      expect(spent).toBeGreaterThan(0);
      const again = spawnApp([], env);
      cleanups.push(again.cleanup);
      await again.waitFor((s) => /1–\d+ of 40/.test(s) || s.includes('Changes left open'));
      again.write('\u0003');
      await again.waitExit();
      expect((await client.me()).credits).toBe(opening - spent); // the restart sent nothing by itself
    }, 60_000);
  }
});
