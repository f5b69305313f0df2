/**
 * A resume leaves to another job the lines that job has an open change of ("left alone"). Refused
 * before sending anything (its read again fails, the record closing another job's balance window
 * cannot be written, or a quit during the read again), the job stays on disk as the log had it: those
 * lines too are never sent, counted in the next offer, not written "skipped" by a run that never
 * went ahead. When the resume goes ahead, they are left alone as before. The other job's open change
 * stays as it was either way.
 */
import { describe, expect, it } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import { fileIntentLog } from '../../src/app/intent-file';
import type { BulkLine } from '../../src/domain/bulk';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';
import { interruptedBesideOpen, nextStartOffers } from './resume-beside-open';

const target = { id: 'sandbox:test', label: 'SANDBOX' };
const diskFull = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/**
 * A job of three lines interrupted before it sent any (released, on disk; `lines` makes them
 * otherwise), and another job whose change of its middle line was sent and is still open (unknown),
 * its balance window open.
 */
async function setup(
  readFails = false,
  lines = (a: LineListItem, b: LineListItem, c: LineListItem): BulkLine[] => [
    jobLine(a),
    jobLine(b),
    jobLine(c),
  ],
) {
  const sandbox = await proxiedSandbox({
    lines: 10,
    rules: readFails ? [{ match: 'GET /v1/lines/all', fault: { kind: 'error5xx', status: 503 } }] : [],
  });
  const { env, dir } = sandbox;
  const [a, b, c] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
  const job = extendJob('job-resumed', lines(a!, b!, c!), { balanceBefore: null });
  interruptedBesideOpen(dir, job, b!);
  /** The job as the next start has it (offered, its never-sent count), and the other job's line. */
  const nextStart = async () => {
    const offered = await nextStartOffers(env.client, dir);
    const onDisk = fileIntentLog(dir, { pid: process.ppid, start: null }).open();
    return {
      unsent: offered.find((r) => r.job.id === job.id)?.unsent,
      mine: onDisk.find((j) => j.id === job.id)?.lines.map((l) => l.state),
      another: onDisk.find((j) => j.id === 'job-another')?.lines.map((l) => l.state),
    };
  };
  return { ...sandbox, job, b: b as LineListItem, nextStart };
}

describe('a resume refused before sending, a line of it left to another job', () => {
  it.each(['the read again fails', 'closing another job’s window', 'a quit during the read again'] as const)(
    '%s: the left-alone line stays never sent on disk, counted in the next offer',
    async (refusal) => {
      const { env, proxy, client, dir, job, nextStart } = await setup(refusal === 'the read again fails');
      const mine = fileIntentLog(dir);
      const changes = createChangeService({
        client: {
          ...client,
          // A quit (Ctrl-C, a dropped session) as the lines are read again.
          listLines: async (q) => {
            if (refusal === 'a quit during the read again') await changes.shutdown(0);
            return client.listLines(q);
          },
        },
        target,
        intents: {
          ...mine,
          closeBalanceWindow(id) {
            if (refusal === 'closing another job’s window' && id === 'job-another') throw diskFull();
            mine.closeBalanceWindow(id);
          },
        },
        journal: memoryJournal(),
        sleep: async () => {},
      });
      const spent = books(env.sb).ledger.length;
      const final = await changes.runChange(job, {
        bulk: true,
        ...(refusal === 'closing another job’s window' ? { linesReadAt: Date.now() } : {}),
      });
      expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
      expect(books(env.sb).ledger.length).toBe(spent);
      // Shown as the log has it: every line never sent.
      expect(final.lines.map((l) => l.state)).toEqual(['pending', 'pending', 'pending']);
      expect(await nextStart()).toMatchObject({
        unsent: 3,
        mine: ['pending', 'pending', 'pending'],
        another: ['unknown'],
      });
    },
    30_000,
  );

  it('goes ahead: the line is left alone (skipped, written so before anything is sent), the others sent once', async () => {
    const { env, proxy, client, dir, job, b } = await setup();
    const mine = fileIntentLog(dir);
    /** What the run wrote of its job, in order: `begin` (its lines) and each line's record. */
    const written: string[] = [];
    const changes = createChangeService({
      client,
      target,
      intents: {
        ...mine,
        begin(j) {
          if (j.id === job.id) written.push(`begin ${j.lines.map((l) => l.state).join(' ')}`);
          mine.begin(j);
        },
        line(id, l) {
          if (id === job.id) written.push(`${l.id === b.id ? 'b' : 'other'} ${l.state}`);
          mine.line(id, l);
        },
      },
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const final = await changes.runChange(job, { bulk: true, linesReadAt: Date.now() });
    expect(final.lines.map((l) => l.state)).toEqual(['done', 'skipped', 'done']);
    const left = final.lines[1]!;
    expect(left).toMatchObject({ heldBack: true });
    expect(left.detail).toMatch(/^left alone: .* has an open change of this line$/);
    expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBe(2);
    expect(books(env.sb).ledger.filter((r) => r.line_id === b.id)).toEqual([]);
    // Begun as the log had it; the line left alone written so once past every refusal, before a send.
    expect(written[0]).toBe('begin pending pending pending');
    expect(written.filter((w) => w.startsWith('b '))).toEqual(['b skipped']);
    expect(written.indexOf('b skipped')).toBeLessThan(written.indexOf('other sending'));
    const onDisk = fileIntentLog(dir, { pid: process.ppid, start: null });
    // Nothing of it left to offer; the other job's change still open, as it was.
    expect(onDisk.open().find((j) => j.id === job.id)).toBeUndefined();
    expect(
      onDisk
        .open()
        .find((j) => j.id === 'job-another')
        ?.lines.map((l) => l.state),
    ).toEqual(['unknown']);
  }, 30_000);

  it('goes ahead and ends its run without sending (its one line to send changed since marked): the line left alone is written so', async () => {
    const { client, dir, job, nextStart } = await setup(false, (a, b, c) => [
      // Marked with a later expiry than the server has now: read again, it is not sent.
      jobLine(a, { before: { ...jobLine(a).before, expMs: (a.exp_date?.ms ?? 0) + 86_400_000 } }),
      jobLine(b),
      // Sent by the run before, its outcome still to check: the job stays open after this run.
      jobLine(c, { state: 'unknown', sentAt: Date.now() }),
    ]);
    const changes = createChangeService({
      client,
      target,
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const final = await changes.runChange(job, { bulk: true });
    expect(final.lines.map((l) => l.state)).toEqual(['skipped', 'skipped', 'unknown']);
    expect(final.lines[1]!.heldBack).toBe(true);
    await changes.shutdown(0);
    expect(await nextStart()).toMatchObject({ unsent: 0, mine: ['skipped', 'skipped', 'unknown'] });
  }, 30_000);
});
