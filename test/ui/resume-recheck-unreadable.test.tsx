/**
 * A check again (resume.recheck) when the intent log's directory cannot be listed: the check is
 * refused (a verdict comes only from the log's own version of a job, never the offer's copy, which
 * another linedesk may have settled since), the directory is named, nothing is written, and the
 * offer stays open with its keys: once the directory reads, a check again runs from the log.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { renderApp } from '../helpers/app';
import { faultyIntentFs } from '../helpers/faulty-fs';
import { offer, resumeSandbox } from '../helpers/interrupted';
import { extendJob, jobLine } from '../helpers/jobs';
import { cleanups } from '../helpers/wait';

describe('a check again of the resume offer over an intent directory that cannot be listed', () => {
  it('is refused with the directory named; nothing written; the offer stays, and checks once it reads', async () => {
    const { env, client } = await resumeSandbox();
    const dir = mkdtempSync(join(tmpdir(), 'ld-unlisted-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    // An injected disk: the tests may run as root, where chmod 000 blocks no read.
    const { fs, failing } = faultyIntentFs(dir);
    const [a, b] = (await env.client.listLines({ limit: 2 })).lines;
    // Sent just now, outcomes unknown: the check at start sees no change yet (their hold window).
    const job = extendJob('job-unlisted', [
      jobLine(a!, { state: 'unknown', sentAt: Date.now() }),
      jobLine(b!, { state: 'unknown', sentAt: Date.now() }),
    ]);
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);
    const journal = memoryJournal();
    const app = await renderApp({}, { client, intents: fileIntentLog(dir, undefined, { fs }), journal }, env);
    await app.waitFrame(
      (f) => offer(f).includes('2 unknown') && f.includes('r checks the unknown ones again'),
    );
    const journaled = journal.entries.length;
    // Another linedesk settles the first line meanwhile (its verdict is in the log and its journal).
    const other = createChangeService({
      client,
      target: { id: 'sandbox:test', label: 'SANDBOX' },
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
    });
    expect(other.settleByHand(job.id, a!.id, 'not applied').ok).toBe(true);
    const file = join(dir, 'job-unlisted.jsonl');
    const onDisk = readFileSync(file, 'utf8');

    failing.listing = true;
    await app.press('resume.recheck');
    await app.waitFrame((f) =>
      f.includes(`Not checked, nothing written: the intent log cannot be read (${dir}:`),
    );
    // Nothing written: no verdict journaled here, the job's file as it was.
    expect(journal.entries.length).toBe(journaled);
    expect(readFileSync(file, 'utf8')).toBe(onDisk);
    // The offer stays, its keys with it.
    await app.waitFrame(
      (f) => offer(f).includes('2 unknown') && f.includes('r checks the unknown ones again'),
    );
    expect(app.store.getState().recovery?.checking).toBe(false);

    // Fixed: r again checks from the log — the line settled elsewhere is not judged again here.
    failing.listing = false;
    await app.press('resume.recheck');
    await app.waitFrame((f) => offer(f).includes('1 unknown'));
    expect(journal.entries.slice(journaled).map((e) => e.username)).not.toContain(a!.username);
  }, 30_000);
});
