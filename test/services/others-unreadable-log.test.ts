/**
 * The questions a check asks about OTHER jobs of the account (is another job changing this line, did
 * one apply it lately, did one close this job's balance window, is one spending now) read an intent
 * log that cannot be read (its directory cannot be listed, another job's file does not read) as
 * "cannot tell", never as "no other jobs": no balance window is opened, none counted open, a change
 * seen on a line may be another client's (never claimed, its charge never counted from the balance),
 * and a question with no cautious answer (which windows to close before spending) refuses to send.
 * The user is told, with the path; the background check says it and keeps trying.
 */
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import type { BulkJob } from '../../src/domain/bulk';
import type { FaultRule } from '../helpers/fault-proxy';
import { faultyIntentFs } from '../helpers/faulty-fs';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { until } from '../helpers/wait';
import { serviceOnFaultyLog } from './faulty-log-service';
import { proxiedSandbox } from './proxied-sandbox';

async function setup(
  rules: readonly FaultRule[] = [],
  opts: { watch?: boolean; holdMs?: number; now?: () => number } = {},
) {
  const { env, proxy, client, dir } = await proxiedSandbox({ lines: 30, rules });
  const lines = (await env.client.listLines({ limit: 30 })).lines.filter(
    (l) => !l.is_trial && l.enabled && l.connections < 5,
  );
  // A disk whose reads fail as the test says (the tests may run as root, where chmod blocks nothing).
  const { failing, journal, changes, events, notices } = serviceOnFaultyLog(client, dir, {
    bulkConcurrency: 1,
    ...(opts.watch ? { watch: true, watchFirstMs: 5 } : {}),
    ...(opts.holdMs !== undefined ? { holdMs: opts.holdMs } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  return { env, proxy, dir, lines, failing, journal, changes, events, notices };
}

/**
 * Another linedesk's job of the account, its extend of `line` in flight (on disk as `sending`), made
 * now: it closes the other jobs' balance windows as it begins (as its service does), then its request
 * reaches the service and is charged.
 */
async function anotherJobExtends(
  env: Awaited<ReturnType<typeof setup>>['env'],
  dir: string,
  line: Parameters<typeof jobLine>[0],
  closing: readonly string[],
): Promise<BulkJob> {
  const log = fileIntentLog(dir);
  const theirs = extendJob('another-job-0000', [jobLine(line, { state: 'sending', sentAt: Date.now() })], {
    balanceBefore: null,
  });
  log.begin(theirs);
  for (const id of closing) log.closeBalanceWindow(id);
  await env.client.extendLine({ id: line.id, duration: 1 });
  return theirs;
}

describe('a job running while the intent log cannot be read', () => {
  it('its settle round with the directory not listable: another job’s change of its line is never claimed, nor its charge counted', async () => {
    // This job's extend never reaches the service (the connection drops with it): its outcome unknown.
    const { env, proxy, dir, lines, failing, changes, notices } = await setup([
      { match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } },
    ]);
    const line = lines[0]!;
    const job = extendJob('job-b-00000000', [jobLine(line)]);
    // As the check reads the line: another linedesk's extend of the same line was just charged (its
    // job closed this one's window, on disk); then the intent log's directory cannot be listed.
    proxy.set({
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
      onList: async (nth) => {
        if (nth !== 1) return;
        await anotherJobExtends(env, dir, line, [job.id]);
        failing.listing = true;
      },
    });
    const final = await changes.runChange(job, { bulk: true, linesReadAt: Date.now() });
    failing.listing = false;
    expect(failing.failed).toBeGreaterThan(0);
    // Never re-sent; the one charge of the line is the other job's.
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.filter((r) => r.line_id === line.id)).toHaveLength(1);
    // The change seen may be the other job's: "possibly by another client", no amount from the balance.
    const l = final.lines[0]!;
    expect(l.state).toBe('done');
    expect(l.maybeOther).toContain(dir);
    expect(l.deducedCredits).toBeUndefined();
    expect(l.charge).toBe('unknown');
    // Said once, with the directory (not once per question or round).
    const said = notices().filter((n) => n.includes(dir));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('cannot be ruled out');
  }, 30_000);

  it('its settle round with the directory gone (moved away): read as unreadable, not as an empty log', async () => {
    const { env, proxy, dir, lines, changes, notices } = await setup();
    const line = lines[0]!;
    const job = extendJob('job-b-00000006', [jobLine(line)]);
    proxy.set({
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
      onList: async (nth) => {
        if (nth !== 1) return;
        await anotherJobExtends(env, dir, line, [job.id]);
        renameSync(dir, `${dir}-moved`);
      },
    });
    try {
      const final = await changes.runChange(job, { bulk: true, linesReadAt: Date.now() });
      expect(books(env.sb).ledger.filter((r) => r.line_id === line.id)).toHaveLength(1);
      expect(final.lines[0]!.state).toBe('done');
      expect(final.lines[0]!.maybeOther).toContain(dir);
      expect(final.lines[0]!.deducedCredits).toBeUndefined();
      expect(notices().some((n) => n.includes(dir) && n.includes('cannot be ruled out'))).toBe(true);
    } finally {
      renameSync(`${dir}-moved`, dir);
    }
  }, 30_000);

  it('the directory not listable as its window would open: no window, the balance judges none of its lines', async () => {
    const { dir, lines, failing, proxy, changes } = await setup();
    const line = lines[0]!;
    const planned = extendJob('job-b-00000001', [jobLine(line)]);
    // While its lines are read again (its intent on disk), the next listing of the directory fails:
    // the window's question ("is another job spending?") cannot be answered.
    proxy.set({
      onList: (nth) => {
        if (nth !== 1) return;
        failing.listing = true;
        failing.times = 1;
      },
    });
    const final = await changes.runChange(planned, { bulk: true });
    expect(failing.failed).toBe(1);
    // Its window never opened: not in its copy, not on disk (what a check after a crash reads).
    expect(final.balanceBefore).toBeNull();
    const onDisk = readFileSync(join(dir, `${planned.id}.jsonl.settled`), 'utf8');
    expect(onDisk).not.toContain('"balance"');
    expect(final.lines[0]!.state).toBe('done');
  }, 30_000);

  it('the directory not listable before it spends: nothing is sent (other jobs’ windows cannot be closed), the directory named', async () => {
    const { env, dir, lines, failing, proxy, journal, changes, notices } = await setup();
    const [line, theirs] = lines;
    // Another job of the account, its window open (its charges judged by the balance).
    const log = fileIntentLog(dir);
    const other = extendJob(
      'another-job-0001',
      [jobLine(theirs!, { state: 'unknown', sentAt: Date.now(), detail: 'sent; no answer' })],
      { balanceBefore: (await env.client.me()).credits },
    );
    log.begin(other);
    log.release(other.id);
    const planned = extendJob('job-b-00000002', [jobLine(line!)]);
    // The directory stops listing while its lines are read again (its intent is on disk by then).
    proxy.set({
      onList: (nth) => {
        if (nth === 1) failing.listing = true;
      },
    });
    const final = await changes.runChange(planned, { bulk: true });
    failing.listing = false;
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.filter((r) => r.line_id === line!.id)).toHaveLength(0);
    expect(final.lines[0]!.state).toBe('failed');
    expect(final.lines[0]!.detail).toContain(dir);
    expect(journal.entries.filter((e) => e.outcome === 'applied')).toEqual([]);
    expect(notices().some((n) => n.startsWith('Not sent, nothing charged') && n.includes(dir))).toBe(true);
  }, 30_000);

  it('the directory not listable when it starts: nothing sent, nothing written', async () => {
    const { env, dir, lines, failing, proxy, changes, notices } = await setup();
    const line = lines[0]!;
    failing.listing = true;
    const final = await changes.runChange(extendJob('job-b-00000003', [jobLine(line)]), {
      bulk: true,
      linesReadAt: Date.now(),
    });
    failing.listing = false;
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.filter((r) => r.line_id === line.id)).toHaveLength(0);
    expect(readdirSync(dir)).toEqual([]);
    expect(final.lines[0]!.state).toBe('failed');
    expect(final.lines[0]!.notSent).toBe(true);
    expect(notices().some((n) => n.startsWith('Not sent, nothing charged') && n.includes(dir))).toBe(true);
  }, 30_000);
});

describe('a resume while another job’s file cannot be read', () => {
  it('sends nothing, keeps the job as it is (released, offered again), and names the file', async () => {
    const { env, dir, lines, failing, proxy, changes, notices } = await setup();
    const [line, theirs] = lines;
    const log = fileIntentLog(dir);
    // A job stopped before sending (its line never sent), and another job whose file no longer reads.
    const mine = extendJob('job-b-00000007', [jobLine(line!)], { balanceBefore: null });
    log.begin(mine);
    log.release(mine.id);
    const other = extendJob('another-job-0002', [jobLine(theirs!, { state: 'sending', sentAt: Date.now() })]);
    log.begin(other);
    log.release(other.id);
    failing.file = join(dir, `${other.id}.jsonl`);
    const final = await changes.runChange(mine, { bulk: true, linesReadAt: Date.now() });
    expect(final).toBe(mine);
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.filter((r) => r.line_id === line!.id)).toHaveLength(0);
    expect(existsSync(join(dir, `${mine.id}.jsonl.owner`))).toBe(false);
    expect(log.open().find((j) => j.id === mine.id)?.lines[0]?.state).toBe('pending');
    expect(
      notices().some((n) => n.startsWith('Not resumed, nothing sent') && n.includes(failing.file!)),
    ).toBe(true);
  }, 30_000);
});

describe('a check while another job’s file cannot be read', () => {
  it('a change seen on its line may be that job’s: "possibly by another client", never claimed', async () => {
    const { env, dir, lines, failing, journal, changes, notices } = await setup();
    const line = lines[0]!;
    // This job's extend of the line was sent hours ago, its outcome unknown (it never reached the
    // service); its window closed since by another job, whose file no longer reads.
    const mine = extendJob(
      'job-b-00000004',
      [jobLine(line, { state: 'unknown', sentAt: Date.now() - 3 * 3_600_000, detail: 'sent; no answer' })],
      { balanceBefore: (await env.client.me()).credits },
    );
    const log = fileIntentLog(dir);
    log.begin(mine);
    log.release(mine.id);
    const theirs = await anotherJobExtends(env, dir, line, [mine.id]);
    failing.file = join(dir, `${theirs.id}.jsonl`);
    const final = await changes.checkChange(mine);
    const l = final.lines[0]!;
    expect(l.state).toBe('done');
    expect(l.maybeOther).toContain(dir);
    expect(l.deducedCredits).toBeUndefined();
    // The journal does not claim it (an "applied, possibly by another client", amount unknown).
    const entry = journal.entries.find((e) => e.lineId === line.id)!;
    expect(entry.charge).toBe('unknown');
    expect(entry.deducedCredits).toBeNull();
    expect(entry.detail).toContain('possibly by another client');
    expect(notices().filter((n) => n.includes(failing.file!))).toHaveLength(1);
  }, 30_000);
});

describe('the background check while the intent log cannot be read', () => {
  it('says the directory once and keeps trying at its next interval; once it reads, the check runs', async () => {
    // The extend never reaches the service: "no change seen yet", checked again in the background.
    const { dir, lines, failing, changes, events, notices } = await setup(
      [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
      { watch: true, holdMs: 10 * 60_000 },
    );
    const line = lines[0]!;
    failing.listing = false;
    const final = await changes.runChange(extendJob('job-b-00000005', [jobLine(line)]), {
      bulk: true,
      linesReadAt: Date.now(),
    });
    expect(final.lines[0]!.state).toBe('unknown');
    failing.listing = true;
    await until(() => failing.failed >= 3);
    const said = notices().filter((n) => n.startsWith('Not checked, nothing written') && n.includes(dir));
    expect(said).toHaveLength(1);
    expect(events.some((e) => e.type === 'checked')).toBe(false);
    failing.listing = false;
    await until(() => events.some((e) => e.type === 'checked'));
    await changes.shutdown(0);
  }, 30_000);

  it('past the hold window too: refused while it cannot be read, it keeps trying, and checks once it reads', async () => {
    let skew = 0;
    const { dir, lines, failing, changes, events, notices } = await setup(
      [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
      { watch: true, holdMs: 10 * 60_000, now: () => Date.now() + skew },
    );
    const final = await changes.runChange(extendJob('job-b-00000008', [jobLine(lines[0]!)]), {
      bulk: true,
      linesReadAt: Date.now(),
    });
    expect(final.lines[0]!.state).toBe('unknown');
    // Before its first background check: the hold window passes, and the directory stops listing.
    skew = 11 * 60_000;
    failing.listing = true;
    // Refused (nothing checked, nothing written), then tried again: not given up as a check past
    // the window would be (that one gave its verdict; this one gave none).
    await until(() => failing.failed >= 3);
    expect(
      notices().filter((n) => n.startsWith('Not checked, nothing written') && n.includes(dir)),
    ).toHaveLength(1);
    expect(events.some((e) => e.type === 'checked')).toBe(false);
    failing.listing = false;
    await until(() => events.some((e) => e.type === 'checked'));
    await changes.shutdown(0);
  }, 30_000);
});

describe('a job file that stays unreadable, as the user is told', () => {
  it('a new change refused for it says what to do (the start-up notice’s words), naming the file and its cause once', async () => {
    const { env, dir, lines, failing, proxy, changes, notices } = await setup();
    const [line, theirs] = lines;
    const log = fileIntentLog(dir);
    const other = extendJob('another-job-0003', [jobLine(theirs!, { state: 'sending', sentAt: Date.now() })]);
    log.begin(other);
    log.release(other.id);
    const file = join(dir, `${other.id}.jsonl`);
    failing.file = file;
    const final = await changes.runChange(extendJob('job-b-00000009', [jobLine(line!)]), {
      bulk: true,
      linesReadAt: Date.now(),
    });
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.filter((r) => r.line_id === line!.id)).toHaveLength(0);
    expect(final.lines[0]!.state).toBe('failed');
    // The line's detail names the file once and its cause once.
    expect(final.lines[0]!.detail!.split(file)).toHaveLength(2);
    expect(final.lines[0]!.detail).not.toContain('it cannot be read (');
    const said = notices().filter((n) => n.startsWith('Not sent, nothing charged'));
    expect(said).toHaveLength(1);
    const refusal = said[0]!;
    // The file once (in the advice's command too: so twice in all), the cause once.
    expect(refusal.split(file)).toHaveLength(3);
    expect(refusal).not.toContain('it cannot be read (');
    expect(refusal.split('(EIO)')).toHaveLength(2);
    expect(refusal).toContain(`linedesk pending --set-aside ${file} --yes`);
    // The same advice as at start, from one wording.
    const atStart: string[] = [];
    const { holdDamagedIntents } = await import('../../src/services/changes/intent-damage');
    const { readLog } = await import('../../src/services/changes/intent-log');
    const disk = faultyIntentFs(dir);
    disk.failing.file = file;
    holdDamagedIntents(
      readLog(fileIntentLog(dir, undefined, { fs: disk.fs })),
      (t) => atStart.push(t),
      () => {},
    );
    const start = atStart.find((t) => t.includes(file));
    expect(start).toBeDefined();
    const advice = refusal.slice(refusal.indexOf('set it aside'), refusal.indexOf('--yes') + 5);
    expect(advice.length).toBeGreaterThan(20);
    expect(start).toContain(advice);
  }, 30_000);

  it('a check told the log cannot be read is told again when it fails again after reading', async () => {
    const { env, dir, lines, failing, changes, notices } = await setup();
    const line = lines[0]!;
    // This job's extend was sent lately, its outcome unknown (it never reached the service).
    const mine = extendJob(
      'job-b-00000010',
      [jobLine(line, { state: 'unknown', sentAt: Date.now(), detail: 'sent; no answer' })],
      { balanceBefore: (await env.client.me()).credits },
    );
    const log = fileIntentLog(dir);
    log.begin(mine);
    log.release(mine.id);
    const other = extendJob('another-job-0004', [
      jobLine(lines[1]!, { state: 'sending', sentAt: Date.now() }),
    ]);
    log.begin(other);
    log.release(other.id);
    const file = join(dir, `${other.id}.jsonl`);
    const told = () => notices().filter((n) => n.includes(file) && n.includes('cannot be ruled out'));
    failing.file = file;
    await changes.checkChange(mine);
    expect(told()).toHaveLength(1);
    // Said once, not each round.
    await changes.checkChange(mine);
    expect(told()).toHaveLength(1);
    // It reads again; then it fails again: said again.
    failing.file = null;
    await changes.checkChange(mine);
    expect(told()).toHaveLength(1);
    failing.file = file;
    await changes.checkChange(mine);
    expect(told()).toHaveLength(2);
  }, 30_000);
});
