/**
 * The offer's check (`checkOffered`) reads each job's version just before its own check, once it
 * took it: read once for all the jobs, job N's version is as old as the checks before it took, and
 * meanwhile this process's background check (watch) may settle it; the offer's check would then
 * judge it again from the stale version: a second verdict, here an "unknown" journaled after the
 * watch proved the line "applied".
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { until } from '../helpers/wait';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('the offer’s check again, each job read just before its check', () => {
  it('never writes a second verdict over a line settled (in this process) since that read', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a, b] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const credits = (await env.client.me()).credits;
    const sent = { state: 'unknown' as const, sentAt: Date.now() - 60_000 };
    // Two jobs (a's, then b's), each with one line sent a minute ago, its outcome unknown.
    const j1 = extendJob('job-1', [jobLine(a!, sent)], {
      balanceBefore: credits,
      createdAt: '2026-01-01T00:00:00Z',
    });
    const j2 = extendJob('job-2', [jobLine(b!, sent)], {
      balanceBefore: credits,
      createdAt: '2026-01-02T00:00:00Z',
    });
    const setup = fileIntentLog(dir);
    for (const j of [j1, j2]) {
      setup.begin(j);
      setup.release(j.id);
    }
    // a's lookups wait at a gate (a slow check of job 1); b's fail while `bDown` (a server hiccup).
    let open!: () => void;
    let gated = false;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    let bDown = false;
    const proxied = new Proxy(client, {
      get(t, k, r) {
        if (k === 'listLines')
          return async (q: Parameters<typeof client.listLines>[0]) => {
            if (gated && (q?.search === a!.id || q?.search === a!.username)) await gate;
            if (bDown && (q?.search === b!.id || q?.search === b!.username))
              throw new Error('socket hang up');
            return t.listLines(q);
          };
        const v = Reflect.get(t, k, r);
        return typeof v === 'function' ? v.bind(t) : v;
      },
    });
    const journal = memoryJournal();
    const A = createChangeService({
      client: proxied,
      target,
      intents: fileIntentLog(dir),
      journal,
      sleep: async () => {},
      watch: true,
      watchFirstMs: 400,
    });
    const offer = await A.recoverIntents();
    expect(offer.map((r) => r.job.lines[0]!.state)).toEqual(['unknown', 'unknown']);
    // b's extend landed late on the server (its charge with it): the next check of job 2 proves it.
    await env.client.extendLine({ id: b!.id, duration: 1 });
    gated = true;
    const again = A.recheckRecovered(offer); // reads both jobs now, then checks job 1 (slow)
    const bEntries = () => journal.entries.filter((e) => e.lineId === b!.id);
    // Meanwhile job 2's watch (set by the first check) settles b: applied.
    await until(() => bEntries().some((e) => e.outcome === 'applied'));
    bDown = true;
    open();
    await again;
    const last = bEntries().at(-1)!;
    expect({
      outcome: last.outcome,
      verdicts: bEntries().filter((e) => e.outcome !== 'unknown').length,
    }).toEqual({
      outcome: 'applied',
      verdicts: 1,
    });
    await A.shutdown(0);
  }, 30_000);
});
