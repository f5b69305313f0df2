/**
 * A new job whose lines end "not sent" before anything was sent is journaled so, whatever refused it:
 * its begin refused by the intent directory (permission denied), a begin whose file could not be
 * taken back out (`BeginNotUndone`), or an intent log that cannot be read before sending. The
 * journal is the user's record of what happened to each line: none is missing from it. Nothing is
 * written to the intent log for such a job (it has no file there), and a journal that cannot take
 * the entry is said.
 */
import * as nodeFs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileIntentLog, type IntentFs } from '../../src/app/intent-file';
import { BeginNotUndone, type IntentLog, memoryIntentLog } from '../../src/services/changes/intent-log';
import { type Journal, memoryJournal } from '../../src/services/changes/journal';
import { outcomeOf } from '../../src/services/changes/outcome';
import { type ChangeServiceDeps, createChangeService } from '../../src/services/changes/service';
import { faultyIntentFs } from '../helpers/faulty-fs';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/** A disk on which nothing in `dir` can be created or written (as after `chmod a-w`; tests may run as root). */
const denyingWrites = (dir: string): Partial<IntentFs> => ({
  openSync: ((p: nodeFs.PathLike, flags?: nodeFs.OpenMode, mode?: nodeFs.Mode) => {
    if (String(p).startsWith(`${dir}/`) && flags !== 'r')
      throw Object.assign(new Error(`EACCES: permission denied, open '${String(p)}'`), {
        code: 'EACCES',
        syscall: 'open',
        path: String(p),
      });
    return nodeFs.openSync(p, flags ?? 'r', mode);
  }) as typeof nodeFs.openSync,
});

/** A journal that refuses every entry (a full disk). */
const refusingJournal = (): Journal => {
  const j = memoryJournal();
  return {
    ...j,
    append() {
      throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    },
  };
};

type Refusal = 'begin denied' | 'begin not undone' | 'log unreadable';

/**
 * A service over an intent log that refuses a new job before anything is sent, for `why`; gives it,
 * two lines of the sandbox, the notices said, and a check that nothing reached the service.
 */
async function setup(why: Refusal, journal: Journal = memoryJournal()) {
  const { env, proxy, client, dir } = await proxiedSandbox({ lines: 10 });
  const [a, b] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
  let intents: IntentLog;
  let written = (): readonly string[] => [];
  if (why === 'begin denied') intents = fileIntentLog(dir, undefined, { fs: denyingWrites(dir) });
  else if (why === 'begin not undone') {
    const log = memoryIntentLog();
    intents = {
      ...log,
      begin(job) {
        throw new BeginNotUndone(
          Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }),
          `${dir}/${job.id}.jsonl`,
          'EIO on its removal',
        );
      },
      line() {
        throw new Error('a job never begun is written to');
      },
    };
  } else {
    const faulty = faultyIntentFs(dir);
    faulty.failing.listing = true;
    intents = fileIntentLog(dir, undefined, { fs: faulty.fs });
    written = () => faulty.written;
  }
  const deps: ChangeServiceDeps = { client, target, intents, journal, sleep: async () => {} };
  const changes = createChangeService(deps);
  const notes: string[] = [];
  const shown = new Map<string, string>();
  changes.subscribe((e) => {
    if (e.type === 'notice') notes.push(e.text);
    if (e.type === 'line') shown.set(e.line.id, e.line.state);
  });
  const spent = books(env.sb).ledger.length;
  const nothingSent = () => {
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.length).toBe(spent);
  };
  return { a: a!, b: b!, dir, changes, notes, shown, nothingSent, written };
}

const refusals: readonly Refusal[] = ['begin denied', 'begin not undone', 'log unreadable'];

describe.each(refusals)('a new job refused before sending (%s)', (why) => {
  it('each line is journaled not sent, and shown so', async () => {
    const journal = memoryJournal();
    const { a, b, changes, shown, nothingSent, written } = await setup(why, journal);
    const final = await changes.runChange(
      extendJob(`job-${why.replace(/ /g, '-')}`, [jobLine(a), jobLine(b)]),
      {
        bulk: true,
        linesReadAt: Date.now(),
      },
    );
    await changes.shutdown(0);
    nothingSent();
    expect(final.lines.map(outcomeOf)).toEqual(['not sent', 'not sent']);
    for (const l of [a, b]) {
      const entries = journal.entries.filter((e) => e.lineId === l.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ outcome: 'not sent', operation: 'extend' });
      expect(entries[0]!.detail).toMatch(/not sent: /);
      expect(shown.get(l.id)).toBe('failed');
    }
    // Nothing was written to the intent log for a job it has no file of.
    expect(written()).toEqual([]);
  }, 30_000);

  it('a single change: journaled not sent', async () => {
    const journal = memoryJournal();
    const { a, changes, nothingSent } = await setup(why, journal);
    const r = await changes.send(
      { op: 'extend', line: a, months: 1, connections: 1, body: null } as never,
      1,
      { linesReadAt: Date.now() },
    );
    await changes.shutdown(0);
    nothingSent();
    expect(r.outcome).toBe('not sent');
    expect(journal.entries.filter((e) => e.lineId === a.id)).toMatchObject([{ outcome: 'not sent' }]);
  }, 30_000);

  it('a journal that cannot take the entry: said', async () => {
    const { a, changes, notes, nothingSent } = await setup(why, refusingJournal());
    await changes.runChange(extendJob('job-unjournaled', [jobLine(a)]), {
      bulk: true,
      linesReadAt: Date.now(),
    });
    await changes.shutdown(0);
    nothingSent();
    // Said as the journal's notice says it: nothing was charged, so it claims no charge.
    expect(notes).toContain(
      'Could not write the journal (the disk failed to read or write (EIO)): 1 entry waits; retrying: check the disk that holds its files. What happened to each line is on screen meanwhile, and a change that was sent stays in the intent log until the journal has it.',
    );
  }, 30_000);
});
