/**
 * `linedesk pending --wait` checks each open job again on every round until its hold window ends; a
 * job another linedesk ended meanwhile (settled, its file kept as ended) or that left the intent log
 * (set aside, or ended and dropped) is noticed on the next round, said, and no longer checked: never
 * waited on until its hold window ends. One ended is done (exit 0); one set aside with its outcome
 * unknown stays unknown (exit 3, where its file is now). One whose file no longer reads is said once,
 * not each round.
 */
import { appendFileSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY } from '../helpers/sandbox';
import { unknownExtend } from '../helpers/unknown-extend';

/** `afterRelease`: runs once, right after the next release of a job (this linedesk let it go). */
const hook = vi.hoisted(() => ({ afterRelease: undefined as ((jobId: string) => void) | undefined }));

vi.mock('../../src/app/intent-file', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/app/intent-file')>();
  return {
    ...real,
    fileIntentLog: (...args: Parameters<typeof real.fileIntentLog>) => {
      const log = real.fileIntentLog(...args);
      return {
        ...log,
        release: (jobId: string) => {
          log.release(jobId);
          const after = hook.afterRelease;
          hook.afterRelease = undefined;
          after?.(jobId);
        },
      };
    },
  };
});

afterEach(() => {
  hook.afterRelease = undefined;
});

/**
 * An unknown extend, then `pending --wait`; once its recovery has checked the job and let it go,
 * `elsewhere` acts on the job's file as another linedesk would. Its clock runs a minute ahead at each
 * reading from then on, so a wait that kept checking the job would still end (its hold window passed).
 */
async function waitWhile(elsewhere: (file: string, jobId: string) => void) {
  const { proxy, line, file, home } = await unknownExtend();
  let ahead: number | null = null;
  hook.afterRelease = (jobId) => {
    elsewhere(file, jobId);
    ahead = 0;
  };
  const now = () => {
    if (ahead === null) return Date.now();
    ahead += 60_000;
    return Date.now() + ahead;
  };
  const out = await headless(['pending', '--wait'], { env: envFor(proxy.baseUrl, DEMO_KEY, home), now });
  expect(ahead).not.toBeNull();
  return { out, line };
}

describe('linedesk pending --wait of a job ended elsewhere', () => {
  it('ended by another linedesk: said, no longer checked, nothing pending', async () => {
    const { out, line } = await waitWhile((file, jobId) => fileIntentLog(join(file, '..')).end(jobId));
    expect(out.stderr).toMatch(/ended meanwhile by another linedesk.*no longer checked/);
    expect(out.stderr).toContain(line.username);
    expect(out.stderr).not.toMatch(/Not checked, nothing written/);
    expect(out.stderr).toMatch(/Nothing is pending/);
    expect(out.code).toBe(0);
  }, 30_000);

  it('set aside elsewhere, its outcome unknown: said with where its file is now, never "known", exit 3', async () => {
    let aside = '';
    const { out, line } = await waitWhile((file) => {
      aside = `${file}.damaged-test`;
      renameSync(file, aside);
    });
    expect(out.stderr).toMatch(/no longer in the intent log: set aside meanwhile/);
    expect(out.stderr.match(/no longer in the intent log/g)).toHaveLength(1);
    expect(out.stderr).toContain(`its file is now ${aside}`);
    expect(out.stderr).toMatch(/its outcome still unknown.*look its line up on the panel/);
    expect(out.stderr).not.toMatch(/Nothing is pending|known outcome/);
    // Reported as open, set aside (a script reads exit 3: unknown).
    expect(out.stdout).toMatch(new RegExp(`${line.username}.*set aside`));
    expect(out.code).toBe(3);
  }, 30_000);

  it('ended elsewhere and dropped (its outcome in the journal): said, nothing pending', async () => {
    const { out, line } = await waitWhile((file, jobId) => {
      const log = fileIntentLog(join(file, '..'));
      const job = log.open().find((j) => j.id === jobId)!;
      const l = job.lines[0]!;
      // As another linedesk that settled it would: its journal entry first, then the job's file gone.
      const data = join(file, '..', '..');
      appendFileSync(
        join(data, 'journal.jsonl'),
        `${JSON.stringify({ opId: `${jobId}:${l.username}`, time: new Date().toISOString(), target: job.target, operation: job.op, lineId: l.id, username: l.username, quotedCost: l.cost, estimate: true, deducedCredits: null, newBalance: null, outcome: 'not applied' })}\n`,
      );
      rmSync(file);
    });
    expect(out.stderr).toMatch(
      /no longer in the intent log \(ended elsewhere and dropped\).*no longer checked/,
    );
    expect(out.stderr).toContain(line.username);
    expect(out.stderr).toMatch(/Nothing is pending/);
    expect(out.code).toBe(0);
  }, 30_000);

  it('its file damaged meanwhile: said once with its path and what to do, not each round', async () => {
    const { out } = await waitWhile((file) => {
      const rest = readFileSync(file, 'utf8').split('\n').slice(1).join('\n');
      writeFileSync(file, `{"n":0,"job":{"id":"torn\n${rest}`);
    });
    expect(out.stderr.match(/Not checked, nothing written: the intent file .* is damaged/g)).toHaveLength(1);
    expect(out.stderr).toMatch(/look its lines up on the panel, then set it aside/);
    expect(out.code).toBe(3);
  }, 30_000);
});
