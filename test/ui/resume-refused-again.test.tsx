/**
 * A resume refused before anything was sent (here: its intent file cannot be read at Enter)
 * leaves its job released with its lines never sent, shown so (not "failed", which would offer a
 * retry as a new job beside the old one). It is offered again in the same session once the results
 * are closed, as the jobs Enter left waiting are: never stuck until the next start. Its file has no
 * balance window (an earlier version's): still a resume, read from the log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';
import { faultyIntentFs } from '../helpers/faulty-fs';
import { offer, resumeSandbox } from '../helpers/interrupted';
import { extendJob, jobLine } from '../helpers/jobs';
import { cleanups } from '../helpers/wait';

describe('a resume refused before anything was sent', () => {
  it('is offered again once its results are closed, and then resumes', async () => {
    const { env, client } = await resumeSandbox();
    const dir = mkdtempSync(join(tmpdir(), 'ld-refused-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'cccccccc-refused.jsonl');
    // An injected disk: the tests may run as root, where chmod 000 blocks no read.
    const { fs, failing } = faultyIntentFs(dir);
    const [a, b] = (await env.client.listLines({ limit: 20 })).lines.filter((l) => !l.is_trial);
    const setup = fileIntentLog(dir);
    const job = extendJob('cccccccc-refused', [jobLine(a!), jobLine(b!)], {
      createdAt: new Date(Date.now() - 10 * 60_000).toISOString(),
    });
    setup.begin(job);
    setup.release(job.id);
    const intents = fileIntentLog(dir, undefined, { fs });
    const app = await renderApp({}, { client, intents, journal: memoryJournal() }, env);
    await app.waitFrame(
      (f) => offer(f).includes('job cccccccc') && f.includes('Enter resumes the 2 lines never sent'),
    );

    failing.file = file;
    await app.confirm('resume.yes');
    await app.waitFrame(() => app.store.getState().bulk?.phase === 'done');
    await app.waitFrame((f) => f.includes('Not resumed, nothing sent') && f.includes(file));
    // Shown as the log holds them, never sent: offered again below, the one way to send them (no
    // retry of them as a new job beside it).
    expect(app.store.getState().bulk?.job.lines.map((l) => l.state)).toEqual(['pending', 'pending']);
    expect(app.frame()).not.toContain('retry the failed');

    // The file reads again; closing the results offers the job again, as the log has it.
    failing.file = null;
    await app.press('bulk.close');
    await app.waitFrame(
      (f) => offer(f).includes('job cccccccc') && f.includes('Enter resumes the 2 lines never sent'),
    );
    await app.confirm('resume.yes');
    await app.waitFrame(
      () =>
        app.store.getState().bulk?.phase === 'done' &&
        app.store.getState().bulk?.job.lines.every((l) => l.state === 'done') === true,
    );
    expect(intents.open()).toEqual([]);
  });
});
