/**
 * The recovery at start journals a settled job's lines again (the journal may lack them) and ends the
 * job only once those entries are on disk, by the rule a run's end follows (`finish`). While the
 * journal refuses writes the job's file stays open, said: the next start journals it again; ended
 * first, the entry would live only in this process's memory, lost with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { type JournalEntry, memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { sandbox } from '../helpers/sandbox';
import { cleanups } from '../helpers/wait';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/** A journal whose writes fail (a full disk) while `refusing.now` holds. */
function refusingJournal() {
  const inner = memoryJournal();
  const refusing = { now: true };
  const journal = {
    ...inner,
    entries: inner.entries,
    append(e: JournalEntry) {
      if (refusing.now) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      inner.append(e);
    },
  };
  return { journal, refusing };
}

describe('the recovery at start, a settled job, the journal refusing writes', () => {
  it('keeps the job open until its entries are written, then ends it', async () => {
    const env = await sandbox({ lines: 10 });
    const dir = mkdtempSync(join(tmpdir(), 'intents-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const [a] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    // An earlier run wrote the verdict to the intent log, then stopped before the journal had it.
    const applied = jobLine(a!, {
      state: 'done',
      sentAt: Date.now() - 60_000,
      detail: 'applied',
      deducedCredits: 1,
    });
    const job = extendJob('job-unjournaled', [applied], { balanceBefore: null });
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);

    const { journal, refusing } = refusingJournal();
    const notices: string[] = [];
    const A = createChangeService({
      client: env.client,
      target,
      intents: fileIntentLog(dir),
      journal,
      sleep: async () => {},
    });
    A.subscribe((e) => {
      if (e.type === 'notice') notices.push(e.text);
    });
    expect(await A.recoverIntents()).toEqual([]);
    // Not written: the job stays open on disk, for the next start to journal, and that is said.
    expect(journal.entries).toEqual([]);
    expect(
      fileIntentLog(dir)
        .open()
        .map((j) => j.id),
    ).toEqual([job.id]);
    expect(notices.some((n) => n.includes('job-unj') && n.includes('journal'))).toBe(true);

    // The journal takes writes again: its last try (the shutdown's) writes the entry, then ends the job.
    refusing.now = false;
    await A.shutdown(0);
    expect(journal.entries.map((e) => [e.lineId, e.outcome])).toEqual([[a!.id, 'applied']]);
    expect(fileIntentLog(dir).open()).toEqual([]);
  }, 30_000);

  it('a run stopped while it waits leaves the job for the next start, which journals it', async () => {
    const env = await sandbox({ lines: 10 });
    const dir = mkdtempSync(join(tmpdir(), 'intents-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const [a] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const applied = jobLine(a!, { state: 'done', sentAt: Date.now() - 60_000, detail: 'applied' });
    const job = extendJob('job-stopped', [applied], { balanceBefore: null });
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);

    const first = refusingJournal();
    const A = createChangeService({
      client: env.client,
      target,
      intents: fileIntentLog(dir),
      journal: first.journal,
      sleep: async () => {},
    });
    await A.recoverIntents();
    await A.shutdown(0);
    expect(first.journal.entries).toEqual([]);

    // The next start (the journal works again) journals it, then ends it. (Here the same process: the
    // claim the first run left is its own, as a claim of a process gone is for a later one.)
    const journal = memoryJournal();
    const B = createChangeService({
      client: env.client,
      target,
      intents: fileIntentLog(dir),
      journal,
      sleep: async () => {},
    });
    await B.recoverIntents();
    expect(journal.entries.map((e) => [e.lineId, e.outcome])).toEqual([[a!.id, 'applied']]);
    expect(fileIntentLog(dir).open()).toEqual([]);
  }, 30_000);
});
