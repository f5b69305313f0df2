/**
 * The background check (watch) of an offered job, while this process uses that job: a resume stops
 * it, and a tick that comes while a check asked for holds the job skips it (in use here). Were a tick
 * to take the job (a claim this process holds counts as its own), it would check it from the log,
 * judging the resume's line in flight, and its end would release the owner file while the resume
 * still sends: another linedesk could then take the job and send its never-sent lines too (charged
 * twice).
 *
 * The service's own `take` refuses a job in use as well, so the money outcome alone cannot tell
 * whether the watch kept off: the tests watch the watch. What it does is seen through its deps: each
 * tick that goes on reads the intent log and says `checked`; each tick, skipped or not, schedules the
 * next one (it asks `deps.watch` whether to watch at all).
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import type { BulkJob } from '../../src/domain/bulk';
import type { IntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { gated } from '../helpers/gated';
import { extendJob, jobLine } from '../helpers/jobs';
import { chargesPerLine } from '../helpers/sandbox';
import { until } from '../helpers/wait';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/**
 * A watching service on `client` over the intent log in `dir`, and what its watch does while the test
 * says the job is in use (`during`): the log calls it makes, the `checked` it says, the ticks it
 * schedules. `scheduled` counts every schedule, in use or not.
 */
function watched(client: Parameters<typeof createChangeService>[0]['client'], dir: string) {
  let inUse = false;
  let scheduled = 0;
  const during = { logCalls: [] as string[], checked: 0, scheduled: 0 };
  const log = fileIntentLog(dir);
  const intents = new Proxy(log, {
    get(t, k, r) {
      const v = Reflect.get(t, k, r);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (inUse) during.logCalls.push(String(k));
        return (v as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  }) as IntentLog;
  const service = createChangeService({
    client,
    target,
    intents,
    journal: memoryJournal(),
    sleep: async () => {},
    bulkConcurrency: 1,
    get watch() {
      scheduled++;
      if (inUse) during.scheduled++;
      return true;
    },
    watchFirstMs: 300,
  });
  service.subscribe((e) => {
    if (e.type === 'checked' && inUse) during.checked++;
  });
  return {
    service,
    during,
    scheduled: () => scheduled,
    inUse: (v: boolean) => {
      inUse = v;
    },
  };
}

/** A job of `lines` in the log, released (as a linedesk that stopped leaves it), to be offered. */
function logged(dir: string, job: BulkJob) {
  const setup = fileIntentLog(dir);
  setup.begin(job);
  setup.release(job.id);
  return job;
}

describe('a watched offered job, resumed', () => {
  it('stops the watch, and never lets another linedesk take (and send) the job while the resume sends it', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a, b, c] = (await env.client.listLines({ limit: 10 })).lines.filter(
      (l) => !l.is_trial && l.enabled,
    );
    // One line sent a minute ago (unknown, in its hold window: the offer's check leaves it unknown
    // and watches it), two never sent.
    const job = logged(
      dir,
      extendJob(
        'job-watched',
        [jobLine(a!, { state: 'unknown', sentAt: Date.now() - 60_000 }), jobLine(b!), jobLine(c!)],
        { balanceBefore: (await env.client.me()).credits },
      ),
    );

    // Process A: its extends wait at a gate, so its resume is "still sending" as long as the test wants.
    const extend = gated(client, 'extendLine');
    const A = watched(extend.client, dir);
    const offer = await A.service.recoverIntents();
    expect(offer.map((r) => r.job.id)).toEqual([job.id]);
    // The offer's check watches the job (what the spy sees of the watch is seen at all).
    expect(A.scheduled()).toBeGreaterThan(0);
    const resumed = A.service.runChange(offer[0]!.job, { bulk: true, linesReadAt: Date.now() });
    await extend.reached();
    A.inUse(true);

    // Process B (another linedesk on the same account): it must see A holding the job while A sends.
    const other = { pid: process.ppid, start: null }; // a live process that is not this one
    const B = fileIntentLog(dir, other);
    // Time passes on purpose (nothing happens when all is well): long enough for the watch's first
    // ticks (300 ms, then 600 ms), had the resume not stopped it.
    const deadline = Date.now() + 1_500;
    let free = false;
    while (Date.now() < deadline && !free) {
      free = B.heldElsewhere(job.id) === null;
      if (!free) await new Promise((r) => setTimeout(r, 10));
    }
    A.inUse(false);
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
    extend.open();
    await resumed;
    expect({
      free,
      perLine: Object.fromEntries(chargesPerLine(env.sb)),
      watchWhileResumed: A.during,
    }).toEqual({
      free: false,
      perLine: { [b!.id]: 1, [c!.id]: 1 },
      watchWhileResumed: { logCalls: [], checked: 0, scheduled: 0 },
    });
    await A.service.shutdown(0);
  }, 30_000);
});

describe('a watched offered job, checked (asked for)', () => {
  it('a tick while the check holds the job skips it: no read of the log, no check, the next tick scheduled', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    logged(
      dir,
      extendJob('job-watched', [jobLine(a!, { state: 'unknown', sentAt: Date.now() - 60_000 })], {
        balanceBefore: (await env.client.me()).credits,
      }),
    );
    // The check's lookups wait at a gate once the offer is made: a slow check the watch's tick meets.
    const lookups = gated(client, 'listLines', false);
    const A = watched(lookups.client, dir);
    const offer = await A.service.recoverIntents();
    expect(offer.map((r) => r.job.lines[0]!.state)).toEqual(['unknown']);
    lookups.hold();
    const checking = A.service.checkChange(offer[0]!.job);
    await lookups.reached();
    A.inUse(true);
    // The watch's next tick (300 ms after the offer's check): skipped, or (wrongly) going on.
    await until(() => A.during.scheduled + A.during.logCalls.length + A.during.checked > 0);
    A.inUse(false);
    lookups.open();
    await checking;
    expect({
      scheduled: A.during.scheduled > 0,
      logCalls: A.during.logCalls,
      checked: A.during.checked,
    }).toEqual({
      scheduled: true,
      logCalls: [],
      checked: 0,
    });
    await A.service.shutdown(0);
  }, 30_000);
});
