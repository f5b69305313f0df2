/**
 * The ownership of an open change (services/changes/ownership.ts), as a contract: the same answers
 * whether the owners are kept in memory or in files beside the jobs (app/intent-file.ts), and for a
 * process that is this one, alive, dead, a zombie, or another with the same pid. Both front-ends
 * reach it through the intent log and the change service.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileOwnerRecords } from '../../src/app/intent-file';
import { startTimeOf, systemProcesses, thisProcess } from '../../src/app/process-owner';
import type { BulkJob, BulkLine } from '../../src/domain/bulk';
import {
  claim,
  heldBy,
  isForeignOf,
  memoryOwnerRecords,
  type Owner,
  type OwnerRecords,
  othersOf,
  type Processes,
  release,
  TORN_ABANDONED_MS,
} from '../../src/services/changes/ownership';

const dirs: string[] = [];
const children: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
  while (children.length) children.pop()!.kill('SIGKILL');
});

/** Each backing, with a way to write an unreadable record (a torn write, another version's). */
const backings: ReadonlyArray<{
  name: string;
  make: () => {
    records: OwnerRecords;
    key: string;
    /** The record there cannot be read (permissions, the disk). */
    unreadable: () => void;
    /** The record there is empty, last written `ageMs` ago. */
    torn: (ageMs: number) => void;
  };
}> = [
  {
    name: 'in memory',
    make: () => {
      const records = memoryOwnerRecords();
      return {
        records,
        key: 'job-1',
        unreadable: () => records.raw.set('job-1', 'unreadable'),
        torn: (ageMs) => records.raw.set('job-1', { tornAt: Date.now() - ageMs }),
      };
    },
  },
  {
    name: 'files beside the jobs',
    make: () => {
      const dir = mkdtempSync(join(tmpdir(), 'owners-'));
      dirs.push(dir);
      const key = join(dir, 'job-1.jsonl');
      // Injected: the tests may run as root, where chmod blocks nothing.
      let failing = false;
      const fs = {
        readFileSync: ((...args: Parameters<typeof readFileSync>) => {
          if (failing && String(args[0]) === `${key}.owner`)
            throw Object.assign(new Error(`EACCES: permission denied, open '${key}.owner'`), {
              code: 'EACCES',
              path: `${key}.owner`,
            });
          return readFileSync(...args);
        }) as typeof readFileSync,
      };
      return {
        records: fileOwnerRecords(fs),
        key,
        unreadable: () => {
          writeFileSync(`${key}.owner`, JSON.stringify(other));
          failing = true;
        },
        torn: (ageMs) => {
          writeFileSync(`${key}.owner`, '{"pid":');
          const at = (Date.now() - ageMs) / 1000;
          utimesSync(`${key}.owner`, at, at);
        },
      };
    },
  },
];

/** Processes as a test says they are: `alive` lists the pids that run. */
const fake = (self: Owner, alive: readonly number[]): Processes => ({
  self,
  isAlive: (o) => alive.includes(o.pid),
});

const me: Owner = { pid: 100, start: 'a' };
const other: Owner = { pid: 200, start: 'b' };

describe.each(backings)('ownership of a job, owners kept $name', ({ make }) => {
  it('a free job is claimed once; its owner holds it against another live process', () => {
    const { records, key } = make();
    expect(heldBy(records, key, fake(me, [100, 200]))).toBeNull();
    expect(claim(records, key, fake(me, [100, 200]))).toBe(true);
    expect(claim(records, key, fake(me, [100, 200]))).toBe(true); // its own again
    expect(records.read(key)).toEqual({ kind: 'owner', owner: me });
    // Seen from the other process: held by a live one, named by its pid; not taken.
    expect(heldBy(records, key, fake(other, [100, 200]))).toBe('another linedesk (process 100)');
    expect(claim(records, key, fake(other, [100, 200]))).toBe(false);
    expect(records.read(key)).toEqual({ kind: 'owner', owner: me });
  });

  it('an owner that is gone (dead, or a zombie: not alive) gives the job to the next taker', () => {
    const { records, key } = make();
    claim(records, key, fake(me, [100]));
    expect(heldBy(records, key, fake(other, [200]))).toBeNull();
    expect(claim(records, key, fake(other, [200]))).toBe(true);
    expect(records.read(key)).toEqual({ kind: 'owner', owner: other });
  });

  it('the same pid with another start time is another process (a reused pid): gone', () => {
    const { records, key } = make();
    claim(records, key, fake({ pid: 100, start: 'old' }, [100]));
    const reused: Processes = { self: other, isAlive: (o) => o.pid === 100 && o.start === 'new' };
    expect(heldBy(records, key, reused)).toBeNull();
    expect(claim(records, key, reused)).toBe(true);
  });

  it('release frees the job only for its owner', () => {
    const { records, key } = make();
    claim(records, key, fake(me, [100, 200]));
    release(records, key, fake(other, [100, 200])); // not its own: nothing happens
    expect(records.read(key)).toEqual({ kind: 'owner', owner: me });
    release(records, key, fake(me, [100, 200]));
    expect(records.read(key)).toEqual({ kind: 'none' });
    expect(claim(records, key, fake(other, [100, 200]))).toBe(true);
  });

  it('a record that cannot be read holds the job: never taken, its file named with what to do', () => {
    const { records, key, unreadable } = make();
    unreadable();
    expect(records.read(key).kind).toBe('unreadable');
    expect(heldBy(records, key, fake(me, [100]))).toMatch(
      /^another linedesk, maybe \(its owner file .*job-1.* cannot be read: .*; make it readable, or remove it once no other linedesk runs\)$/,
    );
    expect(claim(records, key, fake(me, [100]))).toBe(false);
    expect(records.read(key).kind).toBe('unreadable');
  });

  it('a torn record (created, not yet written) holds the job until it is a minute old, then is taken', () => {
    const { records, key, torn } = make();
    torn(1_000);
    expect(heldBy(records, key, fake(me, [100]))).toMatch(
      /^another linedesk \(writing its owner file .*job-1.* now\)$/,
    );
    expect(claim(records, key, fake(me, [100]))).toBe(false);
    torn(TORN_ABANDONED_MS + 1_000);
    expect(heldBy(records, key, fake(me, [100]))).toBeNull();
    expect(claim(records, key, fake(me, [100]))).toBe(true);
    expect(records.read(key)).toEqual({ kind: 'owner', owner: me });
  });

  it('of two takers of a gone owner, the second to move it aside gets nothing', () => {
    const { records, key } = make();
    claim(records, key, fake({ pid: 300, start: 'c' }, []));
    // The first taker moved the record aside and has not yet written its own.
    expect(records.moveAside(key, 100, () => true)).toBe(true);
    expect(records.moveAside(key, 200, () => true)).toBe(false);
    expect(records.create(key, me)).toBe(true);
    expect(records.create(key, other)).toBe(false);
    expect(records.read(key)).toEqual({ kind: 'owner', owner: me });
  });
});

describe.skipIf(process.platform !== 'linux')('ownership with real processes', () => {
  it('a live child holds the job; killed and not reaped (a zombie) it is gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'owners-'));
    dirs.push(dir);
    const key = join(dir, 'job-1.jsonl');
    const records = fileOwnerRecords();
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(child);
    const pid = child.pid!;
    const owner = { pid, start: startTimeOf(pid) };
    expect(claim(records, key, systemProcesses(owner))).toBe(true);
    const here = systemProcesses(thisProcess());
    expect(heldBy(records, key, here)).toBe(`another linedesk (process ${pid})`);
    expect(claim(records, key, here)).toBe(false);
    process.kill(pid, 'SIGKILL');
    const until = Date.now() + 5_000;
    const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[0];
    while (state() !== 'Z' && Date.now() < until) {
      // the kernel finishes the kill; the event loop cannot reap it meanwhile
    }
    expect(heldBy(records, key, here)).toBeNull();
    expect(claim(records, key, here)).toBe(true);
    expect(records.read(key)).toMatchObject({ kind: 'owner', owner: { pid: process.pid } });
  });
});

const line = (id: string, state: BulkLine['state']): BulkLine => ({
  id,
  username: `u-${id}`,
  before: { expMs: null, connections: 1, enabled: true, isTrial: false },
  cost: 1,
  after: {},
  state,
});
const job = (id: string, target: string, lines: BulkLine[]): BulkJob => ({
  id,
  op: 'extend',
  months: 1,
  connections: 1,
  target,
  createdAt: '2026-11-25T00:00:00Z',
  lines,
});

describe('what the other open jobs of an account hold', () => {
  const jobs = [
    job('mine', 'acct', [line('a', 'pending')]),
    job('gone-owner', 'acct', [line('b', 'unknown'), line('c', 'done'), line('d', 'pending')]),
    job('live-owner', 'acct', [line('e', 'done'), line('f', 'pending')]),
    job('other-key', 'acct#other', [line('g', 'sending')]),
  ];
  const live = (id: string) => (id === 'live-owner' ? 'another linedesk (process 7)' : null);

  it('open lines of any job; a live owner also keeps what it applied or will send, and spends', () => {
    const { lines, spending } = othersOf(jobs, 'mine', 'acct', live);
    expect([...lines.keys()].sort()).toEqual(['b', 'e', 'f']);
    expect(lines.get('e')).toBe("another linedesk (process 7)'s extend (job live-own)");
    expect(lines.get('b')).toBe("another linedesk job's extend (job gone-own)");
    expect(spending).toBe(true);
  });

  it('a job of another account (another key) is not this one’s to hold or count', () => {
    const { lines, spending } = othersOf(jobs.slice(0, 2).concat(jobs[3]!), 'mine', 'acct', () => null);
    expect(lines.has('g')).toBe(false);
    expect(spending).toBe(false);
  });

  it('a job recorded for the same service under another key is foreign; another profile’s is not', () => {
    const service = {
      baseUrl: 'https://panel.example',
      targetId: 'https://panel.example#k1',
      others: new Set(['https://panel.example#k3']),
    };
    expect(isForeignOf('https://panel.example#k2', service)).toBe(true);
    expect(isForeignOf('https://panel.example', service)).toBe(true); // an earlier version's, per URL
    expect(isForeignOf('https://panel.example#k1', service)).toBe(false); // its own
    expect(isForeignOf('https://panel.example#k3', service)).toBe(false); // another profile's
    expect(isForeignOf('https://other.example#k2', service)).toBe(false);
  });
});
