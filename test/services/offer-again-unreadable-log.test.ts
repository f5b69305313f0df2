/**
 * The jobs Enter left waiting are offered again once the resumed job's results close (`offerAgain`),
 * read from the intent log as it is then. A log that cannot be read (its directory cannot be listed,
 * a waiting job's file does not read) never drops them silently: those jobs are said, with the path,
 * nothing of them is written, and they stay open in the log for the next start, which offers them. A
 * job no longer in the log is said as such; one that needs nothing any more is journaled and ended, as
 * at start. A resume of a job no longer in the log says so, never "another linedesk".
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { recoveredOf } from '../../src/services/changes/recovery';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { serviceOnFaultyLog } from './faulty-log-service';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/** Two jobs left waiting by a resume (each with a line never sent), released in the log as Enter leaves them. */
async function leftWaiting() {
  const { env, client, dir } = await proxiedSandbox({ lines: 10 });
  const [a, b, c] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
  const one = extendJob('job-one', [jobLine(a!)], { balanceBefore: null });
  const two = extendJob('job-two', [jobLine(b!)], { balanceBefore: null });
  const setup = fileIntentLog(dir);
  for (const job of [one, two]) {
    setup.begin(job);
    setup.release(job.id);
  }
  const { fs, failing, written, journal, changes, events, notices } = serviceOnFaultyLog(client, dir);
  /** The next start: a service of its own over the same log (still failing: `failingToo`), as it offers at start. */
  const nextStart = async (said: string[] = [], failingToo = false) => {
    const next = createChangeService({
      client,
      target,
      intents: failingToo ? fileIntentLog(dir, undefined, { fs }) : fileIntentLog(dir),
      journal: memoryJournal(),
    });
    next.subscribe((e) => {
      if (e.type === 'notice') said.push(e.text);
    });
    return (await next.recoverIntents()).map((r) => r.job.id).sort();
  };
  return {
    env,
    client,
    dir,
    a: a!,
    c: c!,
    one,
    two,
    failing,
    written,
    journal,
    changes,
    events,
    notices,
    nextStart,
  };
}

describe('the jobs left waiting, offered again over an intent log that cannot be read', () => {
  it('the directory cannot be listed: none offered, the directory named, nothing written; the next start offers them', async () => {
    const { dir, one, two, failing, written, changes, notices, nextStart } = await leftWaiting();
    failing.listing = true;
    const offered = await changes.offerAgain([one, two].map(recoveredOf));
    expect(offered).toEqual([]);
    expect(written).toEqual([]);
    const said = notices().filter((n) => n.includes(dir));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^Not offered again.*cannot be listed.*the next start.*extend of 1 line/);
    failing.listing = false;
    expect(await nextStart()).toEqual(['job-one', 'job-two']);
  }, 30_000);

  it("a waiting job's file cannot be read: the other one is offered, that one named with its file, kept for the next start", async () => {
    const { dir, one, two, failing, written, changes, notices, nextStart } = await leftWaiting();
    const file = join(dir, 'job-one.jsonl');
    failing.file = file;
    const offered = await changes.offerAgain([one, two].map(recoveredOf));
    expect(offered.map((r) => r.job.id)).toEqual(['job-two']);
    // Only the job offered is taken (its owner file); nothing of the unreadable one is written.
    expect(written.filter((p) => p.includes('job-one'))).toEqual([]);
    expect(notices().some((n) => n.startsWith('Not offered again') && n.includes(file))).toBe(true);
    changes.leaveForNextStart(offered);
    // A next start while it still does not read names it too (never lost); once it reads, offers it.
    const said: string[] = [];
    expect(await nextStart(said, true)).toEqual(['job-two']);
    expect(said.some((n) => n.includes(file) && n.includes('cannot be read'))).toBe(true);
    failing.file = null;
    expect(await nextStart()).toEqual(['job-one', 'job-two']);
  }, 30_000);

  it('a waiting job no longer in the intent log is said so', async () => {
    const { a, two, changes, notices } = await leftWaiting();
    const gone = extendJob('job-gone', [jobLine(a)], { balanceBefore: null });
    const offered = await changes.offerAgain([gone, two].map(recoveredOf));
    expect(offered.map((r) => r.job.id)).toEqual(['job-two']);
    expect(notices()).toContainEqual(
      expect.stringMatching(/^Not offered again.*no longer in the intent log/),
    );
  }, 30_000);

  it('a waiting job that needs nothing any more is journaled and ended, as at start', async () => {
    const { dir, c, changes, journal } = await leftWaiting();
    // Its line settled elsewhere (written to the log), but the job was never ended there.
    const settled = extendJob('job-settled', [
      jobLine(c, { state: 'done', sentAt: Date.now() - 60_000, detail: 'applied' }),
    ]);
    const log = fileIntentLog(dir);
    log.begin(settled);
    log.release(settled.id);
    const offered = await changes.offerAgain([recoveredOf(settled)]);
    expect(offered).toEqual([]);
    expect(
      fileIntentLog(dir)
        .open()
        .map((j) => j.id),
    ).not.toContain('job-settled');
    expect(journal.entries.map((e) => e.username)).toContain(c.username);
  }, 30_000);
});

describe('a resume of a job no longer in the intent log', () => {
  it('says it is no longer in the log (never "another linedesk"), and sends nothing', async () => {
    const { env, a, changes, notices } = await leftWaiting();
    const stale = extendJob('job-dropped', [jobLine(a)], { balanceBefore: (await env.client.me()).credits });
    await changes.runChange(stale);
    expect(notices()).toContainEqual(
      expect.stringMatching(/^Not resumed, nothing sent: no longer in the intent log.*extend of 1 line/),
    );
    expect(notices().some((n) => n.includes('Another linedesk'))).toBe(false);
    expect(books(env.sb).ledger).toHaveLength(0);
  }, 30_000);

  it('a waiting job set aside elsewhere meanwhile lets go of its lines (no open change held for it)', async () => {
    const { dir, c, changes, events } = await leftWaiting();
    // A third job with an outcome not known yet: its line holds an open change from the start's check.
    const log = fileIntentLog(dir);
    const three = extendJob('job-three', [jobLine(c, { state: 'unknown', sentAt: Date.now() })], {
      balanceBefore: null,
    });
    log.begin(three);
    log.release(three.id);
    const a = c;
    const offered = await changes.recoverIntents();
    changes.leaveForNextStart(offered);
    const held = () => {
      const last = events.filter((e) => e.type === 'open').at(-1);
      return last?.type === 'open' ? last.open.unsettled.has(a.id) : false;
    };
    expect(held()).toBe(true);
    fileIntentLog(dir).setAside!(join(dir, 'job-three.jsonl'));
    await changes.offerAgain(offered);
    expect(held()).toBe(false);
  }, 30_000);
});
