/**
 * The background check (watch) of an offered job, when that job is resumed in the same process: the
 * resume stops it, and a tick meanwhile skips the job (in use here). Were it to take the job (a claim
 * this process holds counts as its own), it would check it from the log, judging the resume's line in
 * flight, and its end would release the owner file while the resume still sends: another linedesk
 * could then take the job and send its never-sent lines too (charged twice).
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('a watched offered job, resumed', () => {
  it('never lets another linedesk take (and send) the job while the resume sends it', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a, b, c] = (await env.client.listLines({ limit: 10 })).lines.filter(
      (l) => !l.is_trial && l.enabled,
    );
    // One line sent a minute ago (unknown, in its hold window: the offer's check leaves it unknown
    // and watches it), two never sent.
    const job = extendJob(
      'job-watched',
      [jobLine(a!, { state: 'unknown', sentAt: Date.now() - 60_000 }), jobLine(b!), jobLine(c!)],
      { balanceBefore: (await env.client.me()).credits },
    );
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);

    // Process A: its extends wait at a gate, so its resume is "still sending" as long as the test wants.
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    let inFlight = 0;
    const gated = new Proxy(client, {
      get(t, k, r) {
        if (k === 'extendLine')
          return async (...args: Parameters<typeof client.extendLine>) => {
            inFlight++;
            await gate;
            return t.extendLine(...args);
          };
        const v = Reflect.get(t, k, r);
        return typeof v === 'function' ? v.bind(t) : v;
      },
    });
    const A = createChangeService({
      client: gated,
      target,
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
      sleep: async () => {},
      bulkConcurrency: 1,
      watch: true,
      watchFirstMs: 300,
    });
    const offer = await A.recoverIntents();
    expect(offer.map((r) => r.job.id)).toEqual([job.id]);
    const resumed = A.runChange(offer[0]!.job, { bulk: true, linesReadAt: Date.now() });
    while (inFlight === 0) await new Promise((r) => setTimeout(r, 5));

    // Process B (another linedesk on the same account): it must see A holding the job while A sends.
    const other = { pid: process.ppid, start: null }; // a live process that is not this one
    const B = fileIntentLog(dir, other);
    // Long enough for the watch's first ticks (300 ms, then 600 ms): each skips the job.
    const deadline = Date.now() + 1_500;
    let free = false;
    while (Date.now() < deadline && !free) {
      free = B.heldElsewhere(job.id) === null;
      if (!free) await new Promise((r) => setTimeout(r, 10));
    }
    // What B would do once free: take it, resume it; line c (never sent by A yet) would go twice.
    const Bservice = createChangeService({
      client,
      target,
      intents: B,
      journal: memoryJournal(),
      sleep: async () => {},
    });
    if (free) {
      const bOffer = await Bservice.recoverIntents();
      if (bOffer[0]) await Bservice.runChange(bOffer[0].job, { bulk: true, linesReadAt: Date.now() });
    }
    open();
    await resumed;
    const perLine = new Map<string, number>();
    for (const r of books(env.sb).ledger) perLine.set(r.line_id, (perLine.get(r.line_id) ?? 0) + 1);
    expect({ free, perLine: Object.fromEntries(perLine) }).toEqual({
      free: false,
      perLine: { [b!.id]: 1, [c!.id]: 1 },
    });
    await A.shutdown(0);
  }, 30_000);
});
