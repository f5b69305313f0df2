/**
 * A local file of the intent log that cannot be written or read is named with what the user can do,
 * by the disk's error (intent-log.ts `diskFix`, the one rule): the take of a job whose owner file
 * cannot be written, an end or a release the disk refuses, and a check, resume or offer refused
 * because the log cannot be read. Another data directory is never advised for a job on disk (its
 * file, with what it holds open, would no longer be read).
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import type { BulkJob } from '../../src/domain/bulk';
import {
  holdDamagedIntents,
  sayNotChecked,
  sayOthersUntold,
  takeJob,
} from '../../src/services/changes/intent-damage';
import {
  type IntentLog,
  logFailed,
  memoryIntentLog,
  unreadableOf,
} from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { faultyIntentFs } from '../helpers/faulty-fs';
import { extendJob } from '../helpers/jobs';
import { logDir, offlineService } from './faulty-log-service';

const target = { id: 'sandbox:test', label: 'SANDBOX' };
const DIR = '/data/linedesk/intents';

/** A disk's error, as node:fs gives it: its code and the path it names. */
const diskError = (code: string, what: string, path: string) =>
  Object.assign(new Error(`${code}: ${what}, open '${path}'`), { code, path });

const line = (username: string, state: BulkJob['lines'][number]['state'] = 'unknown') => ({
  id: `id-${username}`,
  username,
  before: { expMs: null, connections: 1, enabled: true, isTrial: false },
  cost: 1,
  after: {},
  state,
});
const job = extendJob('abcdef1234', [line('alice')]);

describe('the take of a job whose owner file cannot be written', () => {
  const said = (err: Error) => {
    const notes: string[] = [];
    const log: IntentLog = {
      ...memoryIntentLog(),
      claim() {
        throw err;
      },
    };
    const who = takeJob(log, job.id, (t) => notes.push(t));
    expect(who).toMatchObject({ said: true });
    return notes;
  };

  it('permission denied: the file, the directory to fix and how', () => {
    expect(said(diskError('EACCES', 'permission denied', `${DIR}/abcdef1234.jsonl.owner`))).toEqual([
      `The intent log cannot be written (permission denied: ${DIR}/abcdef1234.jsonl.owner (EACCES)): an earlier change (job abcdef12) is not checked from here, and no new change is sent for its lines; linedesk cannot create or write its files in ${DIR}; give this user write permission on it, then try again`,
    ]);
  });

  it('a full disk: the file and what to free', () => {
    expect(said(diskError('ENOSPC', 'no space left on device', `${DIR}/abcdef1234.jsonl.owner`))).toEqual([
      `The intent log cannot be written (the disk is full: ${DIR}/abcdef1234.jsonl.owner (ENOSPC)): an earlier change (job abcdef12) is not checked from here, and no new change is sent for its lines; free space on the disk that holds ${DIR}, then try again`,
    ]);
  });
});

describe('an end or a release the disk refuses', () => {
  const service = (over: Partial<IntentLog>) => {
    const log = memoryIntentLog();
    const intents: IntentLog = { ...log, ...over };
    const changes = createChangeService({
      client: {} as ApiClient,
      target,
      intents,
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const notes: string[] = [];
    changes.subscribe((e) => {
      if (e.type === 'notice') notes.push(e.text);
    });
    return { log, changes, notes };
  };

  it('a release on a read-only file system: held, offered at the next start, and what to do by then', () => {
    const { changes, notes } = service({
      release() {
        throw diskError('EROFS', 'read-only file system', `${DIR}/abcdef1234.jsonl.owner`);
      },
    });
    changes.leaveForNextStart([{ job }] as never);
    expect(notes).toEqual([
      `The intent log cannot be written (the file system is read-only: ${DIR}/abcdef1234.jsonl.owner (EROFS)): job abcdef12 stays held by this linedesk until it ends, and is offered again at the next start; linedesk cannot create or write its files in ${DIR}; make that file system writable by then`,
    ]);
  });

  it('an end refused for permission: offered at the next start, and what to do by then', () => {
    const settled = extendJob('abcdef1234', [line('alice', 'done')]);
    const { log, changes, notes } = service({
      end() {
        throw diskError('EACCES', 'permission denied', `${DIR}/abcdef1234.jsonl`);
      },
    });
    log.begin(settled);
    changes.setAside([settled.id]);
    expect(notes).toEqual([
      `The intent log cannot be written (permission denied: ${DIR}/abcdef1234.jsonl (EACCES)): job abcdef12 is offered again at the next start; linedesk cannot create or write its files in ${DIR}; give this user write permission on it by then`,
    ]);
  });
});

describe('a check, a resume or an offer refused because the log cannot be read', () => {
  it('a resume with the directory not listable: the directory, and what to do about it', async () => {
    const dir = logDir();
    const disk = faultyIntentFs(dir);
    const { changes, notices } = offlineService(dir, disk.fs);
    disk.failing.listing = true;
    const given = { ...job, balanceBefore: null, lines: [line('alice', 'pending')] };
    expect(await changes.runChange(given, { bulk: true })).toBe(given);
    expect(notices).toEqual([
      `Not resumed, nothing sent: the intent log cannot be read (${dir}: the directory cannot be listed (permission denied (EACCES))); give this user permission to read it, then try again (the extend of 1 line (alice))`,
    ]);
  });

  it('a read the disk failed: the file, and the disk to check', () => {
    const notes: string[] = [];
    const logged = logFailed(
      Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', path: `${DIR}/x.jsonl` }),
    );
    sayNotChecked([{ job, logged }], (t) => notes.push(t));
    expect(notes).toEqual([
      `Not checked, nothing written: the intent log cannot be read (${DIR}/x.jsonl: the disk failed to read or write (EIO)); check the disk it is on, then try again (the extend of 1 line (alice))`,
    ]);
  });

  it('an offer again, a directory with no error code: the generic fix, and when it is offered', () => {
    const notes: string[] = [];
    const logged = unreadableOf({
      path: DIR,
      problem: 'the directory cannot be listed (something odd)',
      jobId: null,
      lines: [],
      directory: true,
    });
    sayNotChecked([{ job, logged }], (t) => notes.push(t), 'offer');
    expect(notes).toEqual([
      `Not offered again, nothing written: the intent log cannot be read (${DIR}: the directory cannot be listed (something odd)); fix it (its permissions, the disk); the next start offers them once it reads (the extend of 1 line (alice))`,
    ]);
  });
});

it('an end that waited for the journal, refused by the disk once the journal has it: said, never only logged', async () => {
  const { proxiedSandbox } = await import('./proxied-sandbox');
  const { jobLine } = await import('../helpers/jobs');
  const { env, client } = await proxiedSandbox({ lines: 10 });
  const [a] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
  const journal = memoryJournal();
  let refuseEntry = true;
  const changes = createChangeService({
    client,
    target,
    intents: {
      ...memoryIntentLog(),
      end() {
        throw diskError('EACCES', 'permission denied', `${DIR}/job-waits-0001.jsonl`);
      },
    },
    journal: {
      ...journal,
      append(e) {
        // The first entry waits (a full disk), then the journal takes it.
        if (refuseEntry) {
          refuseEntry = false;
          throw diskError('ENOSPC', 'no space left on device', '/data/linedesk/journal.jsonl');
        }
        journal.append(e);
      },
    },
    sleep: async () => {},
  });
  const notes: string[] = [];
  changes.subscribe((e) => {
    if (e.type === 'notice') notes.push(e.text);
  });
  const final = await changes.runChange(extendJob('job-waits-0001', [jobLine(a!)]), {
    bulk: true,
    linesReadAt: Date.now(),
  });
  expect(final.lines[0]!.state).toBe('done');
  await changes.shutdown(0);
  expect(journal.entries).toHaveLength(1);
  // The journal's own file, named with what to do.
  expect(notes).toContain(
    'Could not write the journal (the disk is full: /data/linedesk/journal.jsonl (ENOSPC)): 1 entry waits; retrying: free space on the disk that holds /data/linedesk. What happened to each line is on screen meanwhile, and a change that was sent stays in the intent log until the journal has it.',
  );
  expect(notes.filter((n) => n.startsWith('The intent log cannot be written'))).toEqual([
    `The intent log cannot be written (permission denied: ${DIR}/job-waits-0001.jsonl (EACCES)): job job-wait is offered again at the next start; linedesk cannot create or write its files in ${DIR}; give this user write permission on it by then`,
  ]);
}, 30_000);

describe('the log’s directory that cannot be listed, at start and while a job is judged', () => {
  const listing = {
    path: DIR,
    problem: 'the directory cannot be listed (permission denied (EACCES))',
    jobId: null,
    lines: [],
    directory: true as const,
    code: 'EACCES',
  };

  it('at start: the directory, and what to do about its permissions', () => {
    const notes: string[] = [];
    holdDamagedIntents(
      { jobs: [], damage: [listing] },
      (t) => notes.push(t),
      () => {},
    );
    expect(notes).toEqual([
      `The intent log cannot be read (${DIR}: the directory cannot be listed (permission denied (EACCES))): the changes left open in it are not checked or offered until it reads; give this user permission to read it, then try again`,
    ]);
  });

  it('while a job is judged by the line alone: the same advice', () => {
    const notes: string[] = [];
    const u = unreadableOf(listing);
    sayOthersUntold(job, u.path, u.problem, (t) => notes.push(t), u.cause, u.code);
    expect(notes).toEqual([
      `The intent log cannot be read (${DIR}: the directory cannot be listed (permission denied (EACCES))): other changes of this account cannot be ruled out, so the balance does not judge the extend of 1 line (alice); its lines are judged by the line alone (a change seen may be another client's); give this user permission to read it`,
    ]);
  });
});
