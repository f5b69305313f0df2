/**
 * The resume offer's check at start always ends: a check that throws part way (an owner file that
 * cannot be read) is said, naming the file, and the offer's keys come back (Enter, Esc): never a
 * dialog stuck "checking" until quit, never fatal. A release the disk refuses after a job's check is
 * said with its file and stops nothing: the next job is checked too.
 */
import { describe, expect, it } from 'vitest';
import { type IntentLog, memoryIntentLog } from '../../src/services/changes/intent-log';
import { storeOnSandbox } from '../helpers/app';
import { extendJob, jobLine } from '../helpers/jobs';
import { sandbox } from '../helpers/sandbox';

/** The disk's own error, as node throws it: its code, what was refused, the file's path. */
const diskError = (code: string, what: string, path: string) =>
  Object.assign(new Error(`${code}: ${what} '${path}'`), { code, path });

/** A store on `env` with these intents, and every flash it says, in order, once each. */
async function storeSaying(intents: IntentLog, env: Awaited<ReturnType<typeof sandbox>>) {
  const { store } = await storeOnSandbox({}, { intents }, env);
  const said: string[] = [];
  store.subscribe((s) => {
    if (s.flash && !said.includes(s.flash.text)) said.push(s.flash.text);
  });
  return { store, said };
}

/** Two jobs left open: one sent an hour ago (checked first), one with a line never sent after it. */
async function twoOpenJobs(intents: IntentLog, env: Awaited<ReturnType<typeof sandbox>>) {
  const [a, b, c] = (await env.client.listLines({ limit: 3 })).lines;
  const old = new Date(Date.now() - 3_600_000).toISOString();
  intents.begin(
    extendJob('job-settles', [jobLine(a!, { state: 'unknown', sentAt: Date.now() - 3_600_000 })], {
      createdAt: old,
    }),
  );
  intents.begin(
    extendJob('job-later', [jobLine(b!, { state: 'unknown', sentAt: Date.now() - 3_600_000 }), jobLine(c!)], {
      createdAt: old,
    }),
  );
}

describe('a check of the offer that throws', () => {
  it('ends: the failure said with its file, the offer usable', async () => {
    const env = await sandbox({ lines: 40 });
    const intents = memoryIntentLog();
    await twoOpenJobs(intents, env);
    // Who holds the second job cannot be told once the checks run (its owner file's read fails):
    // the first job's check throws part way.
    const heldElsewhere = intents.heldElsewhere.bind(intents);
    let asked = 0;
    intents.heldElsewhere = (id) => {
      if (id === 'job-later' && ++asked > 1)
        throw diskError('EIO', 'i/o error, read', '/tmp/ld-intents/job-later.owner');
      return heldElsewhere(id);
    };
    const { store, said } = await storeSaying(intents, env);
    await store.getState().recoverIntents();
    const r = store.getState().recovery;
    expect(r?.checking).toBe(false);
    expect(r?.jobs.map((x) => x.job.id).sort()).toEqual(['job-later', 'job-settles']);
    expect(said.some((t) => t.includes('/tmp/ld-intents/job-later.owner') && t.includes('stopped'))).toBe(
      true,
    );
    // Esc works (the offer is not stuck checking), once the disk reads again.
    intents.heldElsewhere = heldElsewhere;
    store.getState().dismissRecovery();
    expect(store.getState().recovery).toBeNull();
  });

  it('a release the disk refuses is said with its file, never thrown: every job is still checked', async () => {
    const env = await sandbox({ lines: 40 });
    const intents = memoryIntentLog();
    await twoOpenJobs(intents, env);
    // The disk refuses the write that gives a checked job back (its owner file; the disk's own error,
    // with the file's path).
    const release = intents.release.bind(intents);
    intents.release = (id) => {
      throw diskError('ENOSPC', 'no space left on device, write', `/tmp/ld-intents/${id}.owner`);
    };
    const { store, said } = await storeSaying(intents, env);
    await store.getState().recoverIntents();
    const r = store.getState().recovery;
    expect(r?.checking).toBe(false);
    expect(r?.jobs.map((x) => x.job.id).sort()).toEqual(['job-later', 'job-settles']);
    for (const id of ['job-settles', 'job-later'])
      expect(
        said.some(
          (t) => t.includes(`/tmp/ld-intents/${id}.owner`) && t.includes('offered again at the next start'),
        ),
      ).toBe(true);
    expect(said.some((t) => t.includes('stopped'))).toBe(false);
    intents.release = release;
    store.getState().dismissRecovery();
    expect(store.getState().recovery).toBeNull();
  });
});

describe('a set aside the disk refuses', () => {
  it('Esc: the refusal is said with its file, never thrown at the key; the job is offered again', async () => {
    const env = await sandbox({ lines: 40 });
    const [a, b] = (await env.client.listLines({ limit: 2 })).lines;
    const intents = memoryIntentLog();
    // Every outcome known, one line never sent: Esc ends it (its unsent line set aside).
    intents.begin(extendJob('job-ended', [jobLine(a!, { state: 'done', detail: 'applied' }), jobLine(b!)]));
    const end = intents.end.bind(intents);
    intents.end = () => {
      throw diskError('EROFS', 'read-only file system, rename', '/tmp/ld-intents/job-ended');
    };
    const { store, said } = await storeSaying(intents, env);
    await store.getState().recoverIntents();
    expect(store.getState().recovery?.jobs.map((x) => x.job.id)).toEqual(['job-ended']);
    store.getState().dismissRecovery();
    expect(store.getState().recovery).toBeNull();
    expect(
      said.some(
        (t) => t.includes('/tmp/ld-intents/job-ended') && t.includes('offered again at the next start'),
      ),
    ).toBe(true);
    // Nothing ended: the next start offers it again.
    intents.end = end;
    expect(intents.open().map((j) => j.id)).toEqual(['job-ended']);
  });
});
