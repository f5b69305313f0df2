/**
 * The intent log on disk: read defensively (a damaged file is named, never a crash, and never turns a
 * line that may have been sent into "never sent"), written durably (synced before a request leaves),
 * and a disk that refuses a write says what it is, never "another linedesk".
 */
import { spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { fileIntentLog, type IntentFs } from '../../src/app/intent-file';
import { startTimeOf } from '../../src/app/process-owner';
import { type BulkJob, type BulkLine, toBulkLine } from '../../src/domain/bulk';
import { leftToReview, notFoundAgain } from '../../src/services/changes/fresh-lines';
import type { IntentLog } from '../../src/services/changes/intent-log';
import { describeError } from '../../src/services/describe-error';
import { unsettledReason } from '../../src/store/selectors';
import { storeOnSandbox } from '../helpers/app';
import { faultProxy } from '../helpers/fault-proxy';
import { extendJob, jobLine } from '../helpers/jobs';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';

/** The real functions, looked up by name where a test makes one of them fail. */
const real = { ...nodeFs } as unknown as Record<keyof IntentFs, (...a: unknown[]) => unknown>;
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const fsError = (code: string, syscall: string) =>
  Object.assign(new Error(`${code}: injected, ${syscall}`), { code, syscall, errno: -1 });

const aLine = (i: number): BulkLine => ({
  id: `line-${i}`,
  username: `user${i}`,
  before: { expMs: 1_800_000_000_000, connections: 1, enabled: true, isTrial: false },
  cost: 1,
  after: {},
  state: 'pending',
});
const aJob = (id = 'j1', n = 2): BulkJob =>
  extendJob(
    id,
    Array.from({ length: n }, (_, i) => aLine(i)),
    { balanceBefore: 100 },
  );

const SENT = new Set(['sending', 'unknown', 'done']);
const states = (log: IntentLog) => log.open().flatMap((j) => j.lines.map((l) => `${l.id}:${l.state}`));

/**
 * Every intent file a real bulk job wrote, one copy after each record: four lines extended through a
 * proxy that rate-limits one request (a `pending` record after `sending`), loses one reply (`unknown`,
 * then a check) and answers the rest.
 */
async function filesOfARealRun(): Promise<string[]> {
  const env = await sandbox();
  const proxy = await faultProxy(env.sb.baseUrl, {
    rules: [
      {
        match: 'PUT /v1/lines/extend',
        nth: 2,
        fault: { kind: 'rateLimit', headers: { 'retry-after': '0' } },
      },
      { match: 'PUT /v1/lines/extend', nth: 3, fault: { kind: 'replyLost' } },
    ],
  });
  const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  const dir = tmp('ld-real-');
  const real = fileIntentLog(dir);
  const copies: string[] = [];
  const copy = () => {
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.jsonl')))
      copies.push(readFileSync(join(dir, f), 'utf8'));
  };
  const intents: IntentLog = {
    ...real,
    begin: (j) => {
      real.begin(j);
      copy();
    },
    line: (id, l) => {
      real.line(id, l);
      copy();
    },
    closeBalanceWindow: (id) => {
      real.closeBalanceWindow(id);
      copy();
    },
    openBalanceWindow: (id, balance) => {
      real.openBalanceWindow(id, balance);
      copy();
    },
  };
  try {
    const lines = (await env.client.listLines({ type: 'premium', limit: 4 })).lines;
    const { store } = await storeOnSandbox(
      {},
      { client, intents, sleep: () => new Promise((r) => setTimeout(r, 1)) },
      env,
    );
    await store.getState().runChange(
      extendJob(
        'job-real',
        lines.map((l) => jobLine(l)),
      ),
    );
  } finally {
    await client.close();
    await proxy.close();
  }
  return copies;
}

type Damage =
  | { kind: 'truncate'; at: number }
  | { kind: 'replace'; record: number; with: string }
  | { kind: 'duplicate'; record: number; to: number };

const garbage = fc.constantFrom(
  'null',
  '[]',
  '{}',
  '"text"',
  '42',
  '{"job":',
  '\u0000\u0000\u0000',
  '{"line":{"id":5,"state":"weird"}}',
  '{"line":{"id":"line-0","username":"user0","state":"done"}}',
  '{"job":{"id":"j","op":"extend","lines":"none"}}',
  '{"window":true}',
  '{"n":"7","line":{}}',
);

function damage(text: string, d: Damage): string {
  const records = text.split('\n').filter(Boolean);
  switch (d.kind) {
    case 'truncate': {
      // A cut right after a newline leaves a whole earlier file (what the log held a moment before):
      // the cut is moved into that record, so it is torn.
      let at = d.at % text.length;
      if (at > 0 && text[at - 1] === '\n') at--;
      return text.slice(0, at);
    }
    case 'replace':
      records[d.record % records.length] = d.with;
      return `${records.join('\n')}\n`;
    case 'duplicate': {
      const r = records[d.record % records.length]!;
      records.splice((d.to % records.length) + 1, 0, r);
      return `${records.join('\n')}\n`;
    }
  }
}

describe('a damaged intent file', () => {
  it('property: open() never throws; a line the file showed as sent is never "never sent"; the damage is named', async () => {
    const copies = await filesOfARealRun();
    // The run's files hold every state a line passes through, a rate-limited `pending` among them.
    const all = copies.join('\n');
    expect(all).toMatch(/"state":"pending"[^}]*"detail":"rate-limited/);
    for (const s of ['"sending"', '"unknown"', '"done"']) expect(all).toContain(s);
    const dir = tmp('ld-prop-');
    const file = join(dir, 'job-real.jsonl');
    const base = fileIntentLog(dir);
    const damages: fc.Arbitrary<Damage> = fc.oneof(
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('replace' as const), record: fc.nat(), with: garbage }),
      fc.record({ kind: fc.constant('duplicate' as const), record: fc.nat(), to: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.nat({ max: copies.length - 1 }), damages, (i, d) => {
        const original = copies[i]!;
        writeFileSync(file, original);
        const before = base.open()[0]!;
        expect(base.damaged?.()).toEqual([]);
        const sent = before.lines.filter((l) => SENT.has(l.state)).map((l) => l.id);
        const damaged = damage(original, d);
        writeFileSync(file, damaged);
        const log = fileIntentLog(dir);
        const jobs = log.open();
        const report = log.damaged?.() ?? [];
        const job = jobs[0];
        if (job) for (const id of sent) expect(job.lines.find((l) => l.id === id)?.state).not.toBe('pending');
        // A damage that changes what the file says is named with its path.
        const same = job && JSON.stringify(job) === JSON.stringify(before);
        if (!same) expect(report.map((r) => r.path)).toEqual([file]);
        // A job that cannot be read is in the report, with the lines its readable records name.
        if (!job) expect(report[0]).toMatchObject({ path: file, jobId: null });
      }),
      { numRuns: 1000 },
    );
  }, 60_000);

  it('a file of an earlier version (no record numbers) reads as before; fields of a newer one are kept', () => {
    const dir = tmp('ld-compat-');
    const job = aJob();
    const sending = { ...job.lines[0]!, state: 'sending', sentAt: '2026-11-24T10:00:00Z', future: { x: 1 } };
    writeFileSync(
      join(dir, 'j1.jsonl'),
      `${JSON.stringify({ job })}\n${JSON.stringify({ line: sending })}\n${JSON.stringify({ n: 9, later: 'kind' })}\n`,
    );
    const log = fileIntentLog(dir);
    expect(log.damaged?.()).toEqual([]);
    expect(log.open()[0]!.lines[0]).toMatchObject({ state: 'sending', sentAt: '2026-11-24T10:00:00Z' });
    expect(log.open()[0]!.lines[1]).toMatchObject({ state: 'pending' });
  });

  it('why a line was not sent as read again is kept typed across a restart; an earlier file has it from its words', () => {
    const dir = tmp('ld-asread-');
    const log = fileIntentLog(dir);
    const job = aJob('j1', 3);
    log.begin(job);
    // Written by this version: the field holds, whatever the words say.
    log.line(job.id, { ...job.lines[0]!, state: 'skipped', detail: 'other words', notSentAsRead: 'changed' });
    expect(fileIntentLog(dir).open()[0]!.lines[0]).toMatchObject({ notSentAsRead: 'changed' });
    expect(leftToReview(fileIntentLog(dir).open()[0]!.lines[0]!)).toBe(true);
    // An earlier version's file has only the words: read, the field comes from them (the job's own
    // record too: a resumed job begins with the lines an earlier run skipped).
    const old = tmp('ld-asread-old-');
    const skipped = (i: number, detail: string, more: Partial<BulkLine> = {}) => ({
      ...aLine(i),
      state: 'skipped' as const,
      detail,
      ...more,
    });
    const oldJob = extendJob('j2', [
      skipped(
        0,
        'not sent: changed since it was marked (its connections went from 1 to 2); nothing charged: review it and run again',
      ),
      aLine(1),
      aLine(2),
      aLine(3),
      skipped(4, 'left alone: another linedesk has an open change of this line', { heldBack: true }),
    ]);
    writeFileSync(
      join(old, 'j2.jsonl'),
      [
        { job: oldJob },
        {
          line: skipped(
            1,
            'not sent: not found when read again before sending (deleted or moved since it was marked); nothing charged',
          ),
        },
        {
          line: skipped(
            2,
            'not sent: read again, its expiry was earlier than when it was marked, or could not be compared (the server’s search may lag); nothing charged: run it again',
          ),
        },
      ]
        .map((r) => `${JSON.stringify(r)}\n`)
        .join(''),
    );
    const read = fileIntentLog(old);
    expect(read.damaged?.()).toEqual([]);
    const lines = read.open()[0]!.lines;
    expect(lines.map((l) => l.notSentAsRead)).toEqual(['changed', 'gone', 'changed', undefined, undefined]);
    expect(lines.map(leftToReview)).toEqual([true, false, true, false, false]);
    expect(lines.map(notFoundAgain)).toEqual([false, true, false, false, false]);
  });

  it('why a line was not sent, of the wrong type, is named as damage, not read from the words', () => {
    const dir = tmp('ld-asread-bad-');
    const log = fileIntentLog(dir);
    const job = aJob('j1', 2);
    log.begin(job);
    log.line(job.id, {
      ...job.lines[0]!,
      state: 'skipped',
      detail: 'not sent: changed since it was marked',
      notSentAsRead: 7 as unknown as 'changed',
    });
    const read = fileIntentLog(dir);
    expect(read.damaged?.()[0]?.problem).toMatch(/record 2 of 2 is a line record of the wrong shape/);
    // A newer version's reason this one does not know is no damage: read from the words, as before.
    const newer = tmp('ld-asread-newer-');
    const log2 = fileIntentLog(newer);
    log2.begin(job);
    log2.line(job.id, {
      ...job.lines[0]!,
      state: 'skipped',
      detail: 'not sent: changed since it was marked',
      notSentAsRead: 'renamed' as unknown as 'changed',
    });
    expect(fileIntentLog(newer).damaged?.()).toEqual([]);
    expect(fileIntentLog(newer).open()[0]!.lines[0]).toMatchObject({ notSentAsRead: 'changed' });
  });

  it('a record cut mid-write is followed by a newline, so the next record still reads', () => {
    const dir = tmp('ld-torn-');
    const log = fileIntentLog(dir);
    const job = aJob();
    log.begin(job);
    writeFileSync(join(dir, 'j1.jsonl'), `${readFileSync(join(dir, 'j1.jsonl'), 'utf8')}{"n":1,"line":{"id"`);
    fileIntentLog(dir).line(job.id, { ...job.lines[1]!, state: 'sending' });
    expect(states(fileIntentLog(dir))).toEqual(['line-0:unknown', 'line-1:sending']);
    expect(fileIntentLog(dir).damaged?.()[0]?.problem).toMatch(/record 2 of 3 is not JSON/);
  });

  it('a job that cannot be read is set aside only when asked, as <name>.damaged-<time>', () => {
    const dir = tmp('ld-aside-');
    writeFileSync(join(dir, 'j1.jsonl'), 'null\n');
    const log = fileIntentLog(dir);
    const [d] = log.damaged?.() ?? [];
    expect(d).toMatchObject({ path: join(dir, 'j1.jsonl'), jobId: null, lines: [] });
    expect(() => log.setAside?.(join(tmpdir(), 'j1.jsonl'))).toThrow(/not a job file/);
    // Held by another live linedesk: left as it is.
    writeFileSync(
      join(dir, 'j1.jsonl.owner'),
      JSON.stringify({ pid: process.ppid, start: startTimeOf(process.ppid) }),
    );
    expect(() => log.setAside?.(d!.path)).toThrow(/another linedesk \(process \d+\) holds/);
    writeFileSync(
      join(dir, 'j1.jsonl.owner'),
      JSON.stringify({ pid: spawnSync(process.execPath, ['-e', '0']).pid }),
    );
    const to = log.setAside?.(d!.path);
    expect(to).toMatch(/j1\.jsonl\.damaged-\d{4}-\d\d-\d\dT/);
    expect(readdirSync(dir)).toEqual([to!.split('/').at(-1)]);
    expect(log.damaged?.()).toEqual([]);
  });
  it('an ended job kept as settled that does not read is named as ended (never skipped, never open), and set aside when asked', () => {
    const dir = tmp('ld-ended-');
    const log = fileIntentLog(dir);
    const job = aJob('j2');
    log.begin(job);
    log.line(job.id, { ...job.lines[0]!, state: 'done' });
    log.end(job.id);
    expect(log.settled?.().map((j) => j.id)).toEqual(['j2']);
    expect(log.damaged?.()).toEqual([]);
    const file = join(dir, 'j2.jsonl.settled');
    // A torn last record: the job reads, its applied line is named.
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"n":2,"line"`);
    const [torn] = fileIntentLog(dir).damaged?.() ?? [];
    expect(torn).toMatchObject({ path: file, jobId: 'j2', ended: true, lines: [{ id: 'line-0' }] });
    expect(torn!.problem).toMatch(/torn/);
    // Nothing readable: still named, with nothing to show.
    writeFileSync(file, 'null\n');
    const again = fileIntentLog(dir);
    expect(again.damaged?.()).toEqual([expect.objectContaining({ path: file, jobId: null, ended: true })]);
    expect(again.open()).toEqual([]);
    expect(again.settled?.()).toEqual([]);
    const to = again.setAside?.(file);
    expect(to).toMatch(/j2\.jsonl\.settled\.damaged-/);
    expect(again.damaged?.()).toEqual([]);
  });
});

describe('an ended job file whose age cannot be told', () => {
  it('a stat that fails (not "gone") is named as ended damage, never skipped, never fatal', () => {
    const dir = tmp('ld-stat-');
    const log = fileIntentLog(dir);
    const job = aJob('j3');
    log.begin(job);
    log.line(job.id, { ...job.lines[0]!, state: 'done' });
    log.end(job.id);
    // A symlink to itself: listed, but its stat fails (ELOOP), as root too.
    const loop = join(dir, 'j4.jsonl.settled');
    nodeFs.symlinkSync(loop, loop);
    const damage = fileIntentLog(dir).damaged?.() ?? [];
    expect(damage).toEqual([expect.objectContaining({ path: loop, jobId: null, lines: [], ended: true })]);
    expect(damage[0]!.problem).toMatch(/^it cannot be read \(.*ELOOP|too many.*levels/i);
    // The readable ended job is still read; nothing of the other is open.
    expect(
      fileIntentLog(dir)
        .settled?.()
        .map((j) => j.id),
    ).toEqual(['j3']);
    expect(fileIntentLog(dir).open()).toEqual([]);
    // Only the open jobs' side: one scan, and an ended job's damage is not in it.
    expect(fileIntentLog(dir).openWithDamage?.()).toEqual({ jobs: [], damage: [] });
  });

  it('the open jobs and their damage come from one scan of the folder', () => {
    const dir = tmp('ld-scan-');
    let listed = 0;
    const fs: Partial<IntentFs> = {
      readdirSync: ((...a: Parameters<typeof nodeFs.readdirSync>) => {
        listed++;
        return nodeFs.readdirSync(...a);
      }) as IntentFs['readdirSync'],
    };
    const log = fileIntentLog(dir, undefined, { fs });
    log.begin(aJob('j5'));
    writeFileSync(join(dir, 'j6.jsonl'), 'null\n');
    listed = 0;
    const read = log.openWithDamage?.();
    expect(listed).toBe(1);
    expect(read?.jobs.map((j) => j.id)).toEqual(['j5']);
    expect(read?.damage).toEqual([expect.objectContaining({ path: join(dir, 'j6.jsonl') })]);
  });
});

describe('durable writes', () => {
  it('each record is synced before line() returns; a new file, and its directory, before begin() returns', () => {
    const dir = tmp('ld-sync-');
    const events: string[] = [];
    const spy: Partial<IntentFs> = {
      writeSync: ((fd: number, ...rest: never[]) => {
        events.push('write');
        return (nodeFs.writeSync as (...a: unknown[]) => number)(fd, ...rest);
      }) as IntentFs['writeSync'],
      fsyncSync: (fd) => {
        events.push(nodeFs.fstatSync(fd).isDirectory() ? 'fsync dir' : 'fsync file');
        nodeFs.fsyncSync(fd);
      },
      renameSync: (a, b) => {
        events.push('rename');
        nodeFs.renameSync(a, b);
      },
    };
    const log = fileIntentLog(dir, undefined, { fs: spy });
    const job = aJob();
    log.begin(job);
    // The owner file, then the job written and synced, renamed into place, and the directory synced.
    expect(events).toEqual(['write', 'fsync file', 'write', 'fsync file', 'rename', 'fsync dir']);
    events.length = 0;
    log.line(job.id, { ...job.lines[0]!, state: 'sending' });
    expect(events).toEqual(['write', 'fsync file']);
    events.length = 0;
    log.openBalanceWindow(job.id, 900);
    expect(events).toEqual(['write', 'fsync file']);
  });
});

describe('a job’s balance window, opened after it was begun', () => {
  const balanceOf = (dir: string) => fileIntentLog(dir).open()[0]?.balanceBefore;

  it('begun with none, opened once the lines were read again: the balance read then is the one kept', () => {
    const dir = tmp('ld-window-');
    const log = fileIntentLog(dir);
    const job = { ...aJob(), balanceBefore: null };
    log.begin(job);
    expect(balanceOf(dir)).toBeNull();
    log.line(job.id, { ...job.lines[0]!, state: 'skipped' });
    log.openBalanceWindow(job.id, 900);
    log.line(job.id, { ...job.lines[1]!, state: 'sending' });
    expect(balanceOf(dir)).toBe(900);
    expect(fileIntentLog(dir).damaged?.()).toEqual([]);
    // Another job closes it: closed from then on.
    fileIntentLog(dir).closeBalanceWindow(job.id);
    expect(balanceOf(dir)).toBeNull();
  });

  it('a window another job closed before it opened stays closed: that job’s spending is in the balance', () => {
    const dir = tmp('ld-window-');
    const log = fileIntentLog(dir);
    const job = { ...aJob(), balanceBefore: null };
    log.begin(job);
    fileIntentLog(dir).closeBalanceWindow(job.id);
    log.openBalanceWindow(job.id, 900);
    expect(balanceOf(dir)).toBeNull();
    expect(fileIntentLog(dir).damaged?.()).toEqual([]);
  });

  it('a balance record of the wrong shape is named, and opens nothing', () => {
    const dir = tmp('ld-window-');
    const log = fileIntentLog(dir);
    const job = { ...aJob(), balanceBefore: null };
    log.begin(job);
    writeFileSync(
      join(dir, 'j1.jsonl'),
      `${readFileSync(join(dir, 'j1.jsonl'), 'utf8')}{"n":1,"balance":"9"}\n`,
    );
    expect(balanceOf(dir)).toBeNull();
    expect(fileIntentLog(dir).damaged?.()[0]?.problem).toMatch(
      /record 2 of 2 is a balance record of the wrong shape/,
    );
  });
});

describe('a disk that refuses a write', () => {
  const failing = (what: keyof IntentFs, code: string, when: (...a: unknown[]) => boolean = () => true) =>
    ({
      [what]: (...a: unknown[]) => {
        if (when(...a)) throw fsError(code, what);
        return real[what](...a);
      },
    }) as Partial<IntentFs>;

  it('a full disk: begin says so with the path, never "another linedesk", and leaves no file', () => {
    const dir = tmp('ld-full-');
    const log = fileIntentLog(dir, undefined, { fs: failing('writeSync', 'ENOSPC') });
    let err: unknown;
    try {
      log.begin(aJob());
    } catch (e) {
      err = e;
    }
    expect(describeError(err)).toBe(`the disk is full: ${join(dir, 'j1.jsonl.owner')} (ENOSPC)`);
    expect(readdirSync(dir)).toEqual([]);
    // The owner went in, the job could not: no .tmp and no owner left behind.
    const late = fileIntentLog(dir, undefined, {
      fs: failing('writeSync', 'ENOSPC', (fd) => nodeFs.fstatSync(fd as number).size === 0 && seen++ > 0),
    });
    let seen = 0;
    expect(() => late.begin(aJob())).toThrow(/ENOSPC/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a full disk mid-job: the record is not on disk, line() throws with the path, the next one reads', () => {
    const dir = tmp('ld-full2-');
    fileIntentLog(dir).begin(aJob());
    // Half of the record reaches the disk, then the disk is full.
    const half: Partial<IntentFs> = {
      writeSync: ((fd: number, buf: Uint8Array, off: number, len: number) => {
        nodeFs.writeSync(fd, buf, off, len >> 1);
        throw fsError('ENOSPC', 'write');
      }) as unknown as IntentFs['writeSync'],
    };
    const log = fileIntentLog(dir, undefined, { fs: half });
    let err: unknown;
    try {
      log.line('j1', { ...aLine(0), state: 'sending' });
    } catch (e) {
      err = e;
    }
    expect(describeError(err)).toBe(`the disk is full: ${join(dir, 'j1.jsonl')} (ENOSPC)`);
    fileIntentLog(dir).line('j1', { ...aLine(1), state: 'sending' });
    // The torn half: line 0 may have been sent as far as the file can tell, so it is checked.
    expect(states(fileIntentLog(dir))).toEqual(['line-0:unknown', 'line-1:sending']);
  });

  it.each([
    ['EACCES', 'permission denied'],
    ['EROFS', 'the file system is read-only'],
    ['EPERM', 'operation not permitted'],
  ])(
    '%s on the owner file: begin says "%s" with the path; claim throws rather than "held"',
    (code, words) => {
      const dir = tmp('ld-ro-');
      const log = fileIntentLog(dir, undefined, {
        fs: failing('openSync', code, (p) => String(p).endsWith('.owner')),
      });
      expect(() => log.claim('j1')).toThrow(code);
      let err: unknown;
      try {
        log.begin(aJob());
      } catch (e) {
        err = e;
      }
      expect(describeError(err)).toBe(`${words}: ${join(dir, 'j1.jsonl.owner')} (${code})`);
      expect(String(err)).not.toMatch(/another linedesk/);
      expect(readdirSync(dir)).toEqual([]);
    },
  );

  it.skipIf(process.getuid?.() === 0)(
    'a read-only directory (chmod 0500; skipped as root, who writes anyway): permission denied, no file left',
    () => {
      const dir = tmp('ld-ro-real-');
      chmodSync(dir, 0o500);
      try {
        expect(() => fileIntentLog(dir).begin(aJob())).toThrow(/EACCES/);
        expect(readdirSync(dir)).toEqual([]);
      } finally {
        chmodSync(dir, 0o700);
      }
    },
  );

  it('a change is not sent, and says why: the disk, by name', async () => {
    const env = await sandbox();
    const dir = tmp('ld-ro-store-');
    const intents = fileIntentLog(dir, undefined, {
      fs: failing('openSync', 'EROFS', (p) => String(p).endsWith('.owner')),
    });
    const [line] = (await env.client.listLines({ type: 'premium', limit: 1 })).lines;
    const { store } = await storeOnSandbox({}, { intents }, env);
    const { balanceBefore: _, ...fresh } = aJob('j-ro', 0);
    const final = await store.getState().runChange({
      ...fresh,
      lines: [{ ...toBulkLine(line!), cost: line!.connections }],
    });
    expect(final.lines[0]).toMatchObject({ state: 'failed', provenNotApplied: true, notSent: true });
    // The file (never made) and the directory to fix, with what to do.
    expect(final.lines[0]!.detail).toBe(
      `not sent: the intent log could not be written (the file system is read-only: ${join(dir, 'j-ro.jsonl.owner')} (EROFS)): linedesk cannot create or write its files in ${dir}; make that file system writable (or set LINEDESK_DATA_DIR to a directory it can write), then try again`,
    );
    expect(books(env.sb).ledger).toHaveLength(0);
  });

  it('at start, a job whose owner file cannot be written is held and said as the disk, not "another linedesk"', async () => {
    const env = await sandbox();
    const dir = tmp('ld-ro-start-');
    const [line] = (await env.client.listLines({ type: 'premium', limit: 1 })).lines;
    const gone = { pid: spawnSync(process.execPath, ['-e', '0']).pid!, start: null };
    const job = {
      ...aJob('j-left', 0),
      lines: [{ ...toBulkLine(line!), cost: 1, state: 'unknown' as const }],
    };
    fileIntentLog(dir, gone).begin(job);
    const intents = fileIntentLog(dir, undefined, {
      fs: failing('renameSync', 'EACCES', (p) => String(p).endsWith('.owner')),
    });
    const { store } = await storeOnSandbox({}, { intents }, env);
    await store.getState().start();
    const s = store.getState();
    expect(s.recovery).toBeNull();
    expect(unsettledReason(s, line!.id)).toMatch(
      /^held for an intent log that cannot be written \(permission denied: /,
    );
    expect(s.flash?.text).not.toMatch(/another linedesk/);
    expect(s.flash?.text).toContain(`permission denied: ${join(dir, 'j-left.jsonl.owner')} (EACCES)`);
  });
});

describe("the log's own version of given jobs (what a check writes verdicts from)", () => {
  it('open, ended, gone, a file that does not read, a directory that cannot be listed or is gone: each said, with the path', () => {
    const dir = tmp('ld-current-');
    let unlisted = false;
    const fs: Partial<IntentFs> = {
      readdirSync: ((...a: unknown[]) => {
        if (unlisted) throw Object.assign(fsError('EACCES', 'scandir'), { path: dir });
        return real.readdirSync(...a);
      }) as IntentFs['readdirSync'],
    };
    const log = fileIntentLog(dir, undefined, { fs });
    log.begin(aJob('open1'));
    log.begin(aJob('ended1'));
    log.end('ended1');
    writeFileSync(join(dir, 'torn1.jsonl'), 'null\n');
    const read = log.current?.(['open1', 'ended1', 'torn1', 'none1']);
    expect(read?.get('open1')).toMatchObject({ kind: 'open', job: { id: 'open1' } });
    expect(read?.get('ended1')).toMatchObject({ kind: 'ended', job: { id: 'ended1' } });
    expect(read?.get('torn1')).toMatchObject({ kind: 'unreadable', path: join(dir, 'torn1.jsonl') });
    expect(read?.get('none1')).toEqual({ kind: 'gone' });
    // Not listable: no job's version can be told, the directory named for each.
    unlisted = true;
    expect(log.open()).toEqual([]);
    expect(log.current?.(['open1']).get('open1')).toMatchObject({
      kind: 'unreadable',
      path: dir,
      problem: expect.stringContaining('the directory cannot be listed'),
    });
    unlisted = false;
    // Gone: these jobs were in it, so not "an empty log" as at a first start.
    nodeFs.rmSync(dir, { recursive: true, force: true });
    expect(log.open()).toEqual([]);
    expect(log.current?.(['open1']).get('open1')).toMatchObject({ kind: 'unreadable', path: dir });
  });
});

describe('the ended jobs when the directory cannot be listed', () => {
  it('`settled` throws, the directory named (what they applied cannot be told, never "none"); ending a job does not', () => {
    const dir = tmp('ld-settled-list-');
    let failing = false;
    const fs: Partial<IntentFs> = {
      readdirSync: ((...args: Parameters<typeof readdirSync>) => {
        if (failing && String(args[0]) === dir)
          throw Object.assign(new Error(`EACCES: permission denied, scandir '${dir}'`), { code: 'EACCES' });
        return readdirSync(...args);
      }) as IntentFs['readdirSync'],
    };
    const log = fileIntentLog(dir, undefined, { fs });
    const job = aJob('j5');
    log.begin(job);
    log.line(job.id, { ...job.lines[0]!, state: 'done' });
    failing = true;
    // Ended (kept as settled); dropping the old ones waits for a listing: not the end's failure.
    log.end(job.id);
    let thrown: unknown;
    try {
      log.settled?.();
    } catch (err) {
      thrown = err;
    }
    expect((thrown as NodeJS.ErrnoException | undefined)?.path).toBe(dir);
    expect(describeError(thrown)).toMatch(/EACCES|permission/i);
    failing = false;
    expect(log.settled?.().map((j) => j.id)).toEqual(['j5']);
  });
});
