/**
 * A check of recovered jobs writes its verdicts from the intent log's version of each job, never from
 * the copy a caller holds (the resume offer's, read at start): another linedesk, or an earlier check,
 * may have settled a line since. When the log's directory cannot be listed, or a job's file cannot be
 * read, the check is refused for those jobs: nothing is written, and the path is said; once it reads
 * again, the check runs from the log.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { recoveredOf } from '../../src/services/changes/recovery';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { serviceOnFaultyLog } from './faulty-log-service';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/**
 * An offer's job of two lines whose outcomes were unknown when it was read; since, another linedesk
 * settled the first one by hand (written to the log). `failing` makes the log's reads fail as the
 * test says (an injected disk: the tests may run as root, where chmod blocks nothing).
 */
async function settledSinceTheOffer() {
  const { env, client, dir } = await proxiedSandbox({ lines: 30 });
  const [a, b] = (await env.client.listLines({ limit: 30 })).lines.filter((l) => !l.is_trial && l.enabled);
  const sentAt = Date.now() - 3 * 3_600_000; // long past its hold window: a check gives a verdict
  const job = extendJob('job-offered', [
    jobLine(a!, { state: 'unknown', sentAt, detail: 'sent; no answer' }),
    jobLine(b!, { state: 'unknown', sentAt, detail: 'sent; no answer' }),
  ]);
  const setup = fileIntentLog(dir);
  setup.begin(job);
  setup.release(job.id);
  const offered = [recoveredOf(job)];
  // Another linedesk settles the first line (its verdict is journaled there, once).
  const other = createChangeService({
    client,
    target,
    intents: fileIntentLog(dir),
    journal: memoryJournal(),
  });
  expect(other.settleByHand(job.id, a!.id, 'not applied').ok).toBe(true);

  /** What the log wrote or removed (an owner file too) while its reads failed: `written`. */
  const { failing, written, journal, changes, notices } = serviceOnFaultyLog(client, dir);
  const file = join(dir, 'job-offered.jsonl');
  return { a: a!, b: b!, dir, file, job, offered, failing, written, journal, changes, notices };
}

describe('a check again of the resume offer over an intent log that cannot be read', () => {
  it('the directory cannot be listed: refused, nothing written, the directory named; checked from the log once it reads', async () => {
    const { a, b, dir, file, offered, failing, written, journal, changes, notices } =
      await settledSinceTheOffer();
    const before = readFileSync(file, 'utf8');
    failing.listing = true;
    const after = await changes.recheckRecovered(offered);
    // Nothing is written: no verdict journaled, the job's file as it was, not even an owner file.
    expect(journal.entries).toEqual([]);
    expect(written).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(existsSync(`${file}.owner`)).toBe(false);
    // The offer keeps its job as it was (still to check), and the user is told which directory.
    expect(after.map((r) => r.job.lines.map((l) => l.state))).toEqual([['unknown', 'unknown']]);
    expect(notices().some((n) => n.includes(dir) && n.includes('cannot be listed'))).toBe(true);
    expect(changes.open().unsettled.has(b.id)).toBe(true);

    // Fixed: the check runs from the log's version — the line settled elsewhere is not judged again.
    failing.listing = false;
    await changes.recheckRecovered(offered);
    expect(journal.entries.map((e) => e.username)).not.toContain(a.username);
    expect(journal.entries.map((e) => e.username)).toContain(b.username);
  }, 30_000);

  it("the job's file cannot be read: refused for that job, nothing written, the file named", async () => {
    const { file, offered, failing, written, journal, changes, notices } = await settledSinceTheOffer();
    const before = readFileSync(file, 'utf8');
    failing.file = file;
    const after = await changes.recheckRecovered(offered);
    expect(journal.entries).toEqual([]);
    expect(written).toEqual([]);
    failing.file = null;
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(existsSync(`${file}.owner`)).toBe(false);
    expect(after.map((r) => r.job.lines.map((l) => l.state))).toEqual([['unknown', 'unknown']]);
    expect(notices().some((n) => n.includes(file) && n.includes('cannot be read'))).toBe(true);
  }, 30_000);

  it('a single check (a dialog, `linedesk pending --wait`) of a job ended elsewhere since takes the log’s verdicts and writes none', async () => {
    const { b, dir, job, journal, changes } = await settledSinceTheOffer();
    // The other linedesk settles the second line too: the job ends (kept a while as settled).
    const other = createChangeService({
      client: {} as never,
      target,
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
    });
    expect(other.settleByHand(job.id, b.id, 'applied').ok).toBe(true);
    // Checked from the copy read before (both lines unknown in it): the log's version is taken.
    const final = await changes.checkChange(job);
    expect(final.lines.map((l) => l.state)).toEqual(['failed', 'done']);
    expect(journal.entries).toEqual([]);
  }, 30_000);

  it('a single check with the directory not listable: refused, no verdict written, the directory named', async () => {
    const { dir, file, job, failing, journal, changes, notices } = await settledSinceTheOffer();
    const before = readFileSync(file, 'utf8');
    failing.listing = true;
    const final = await changes.checkChange(job);
    expect(journal.entries).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(existsSync(`${file}.owner`)).toBe(false);
    expect(final).toBe(job);
    expect(notices().some((n) => n.includes(dir) && n.includes('cannot be listed'))).toBe(true);
  }, 30_000);

  it('the directory gone since the offer: refused, nothing written, the directory named (not an empty log)', async () => {
    const { dir, offered, journal, changes, notices } = await settledSinceTheOffer();
    renameSync(dir, `${dir}-moved`);
    try {
      const after = await changes.recheckRecovered(offered);
      expect(journal.entries).toEqual([]);
      expect(existsSync(dir)).toBe(false);
      expect(after.map((r) => r.job.lines.map((l) => l.state))).toEqual([['unknown', 'unknown']]);
      expect(notices().some((n) => n.includes(dir) && n.includes('cannot be listed'))).toBe(true);
    } finally {
      renameSync(`${dir}-moved`, dir);
    }
  }, 30_000);

  it('a resume (Enter) with the directory not listable sends nothing, and says the directory, not "another linedesk"', async () => {
    const { dir, job, failing, journal, changes, notices } = await settledSinceTheOffer();
    const resumed = {
      ...job,
      balanceBefore: null,
      lines: [job.lines[0]!, { ...job.lines[1]!, state: 'pending' as const }],
    };
    failing.listing = true;
    const final = await changes.runChange(resumed, { bulk: true });
    expect(final).toBe(resumed);
    expect(journal.entries).toEqual([]);
    expect(notices().some((n) => n.startsWith('Not resumed, nothing sent') && n.includes(dir))).toBe(true);
    expect(notices().join('\n')).not.toContain('Another linedesk');
  }, 30_000);
});
