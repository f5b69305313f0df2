/**
 * Interleavings of three linedesks (a review found them) (each step one call on the disk) that end with two
 * owners of one job. Each claimer's disk is injected; a claimer's reads done earlier than its later
 * steps are replayed from what the disk answered at that earlier moment (a read has no effect: doing
 * it then and handing its answer over later is the same as the claimer being paused after it).
 */
import * as nodeFs from 'node:fs';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileOwnerRecords, type IntentFs } from '../../src/app/intent-file';
import { claim, heldBy, type Owner, type Processes, release } from '../../src/services/changes/ownership';

const dir = mkdtempSync(join(tmpdir(), 'owner-holes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let jobs = 0;
const newKey = () => join(dir, `job-${++jobs}.jsonl`);

const P: Owner = { pid: 100, start: 'p' };
const Q: Owner = { pid: 200, start: 'q' };
const S: Owner = { pid: 300, start: 's' };
const T: Owner = { pid: 400, start: 't' };
/** A linedesk that ran the job before and died. */
const DEAD: Owner = { pid: 900, start: 'x' };
const as = (self: Owner): Processes => ({ self, isAlive: (o) => o.pid !== DEAD.pid });

const NAMES = [
  'closeSync',
  'existsSync',
  'fstatSync',
  'fsyncSync',
  'linkSync',
  'mkdirSync',
  'openSync',
  'readdirSync',
  'readFileSync',
  'readSync',
  'renameSync',
  'rmSync',
  'statSync',
  'writeSync',
] as const;

type Answer = { value: unknown } | { error: unknown };
const answer = (f: () => unknown): Answer => {
  try {
    return { value: f() };
  } catch (error) {
    return { error };
  }
};

/**
 * The real disk, `before(name, args)` called before each call; `override(name, args)` may answer a
 * call in its place (an Answer), or let it through (undefined).
 */
function steppedFs(
  before: (name: string, args: unknown[]) => void,
  override: (name: string, args: unknown[]) => Answer | undefined = () => undefined,
): IntentFs {
  const real = nodeFs as unknown as Record<string, (...a: unknown[]) => unknown>;
  const fs: Record<string, (...a: unknown[]) => unknown> = {};
  for (const name of NAMES)
    fs[name] = (...args: unknown[]) => {
      before(name, args);
      const a = override(name, args);
      if (a === undefined) return real[name]!(...args);
      if ('error' in a) throw a.error;
      return a.value;
    };
  return fs as unknown as IntentFs;
}

/** Replays `answers` (by call name, in order) before letting calls through to the real disk. */
const replaying = (answers: Map<string, Answer[]>) => (name: string) => answers.get(name)?.shift();

const ownerIn = (key: string): number | null => {
  try {
    return (JSON.parse(nodeFs.readFileSync(`${key}.owner`, 'utf8')) as Owner).pid;
  } catch {
    return null;
  }
};

const errno = (code: string, syscall: string, path: string) =>
  Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });

describe('review r3: two owners of one job', () => {
  /**
   * D (dead) owns. Q judges D gone. P takes the job (moves D aside and drops it) and, before P makes
   * its own record, S reads: no owner file, nothing being moved aside: free. P makes its record; Q
   * moves it aside (it judged D, it finds P's). Now S makes its record ('wx': nothing is there). Q
   * puts P's back: the link fails (S's is there) and P's record is removed. P and S both own.
   */
  it('a claimer that found the job free just before a taker moved a live owner aside makes its own in that gap', () => {
    const key = newKey();
    const file = `${key}.owner`;
    writeFileSync(file, JSON.stringify(DEAD));
    const sAnswers = new Map<string, Answer[]>();
    let pClaimed: boolean | undefined;
    let sClaimed: boolean | undefined;
    const sRecords = fileOwnerRecords(steppedFs(() => {}, replaying(sAnswers)));
    const pRecords = fileOwnerRecords(
      steppedFs((name) => {
        // P has moved D aside and dropped it; before its 'wx' create, S reads.
        if (name === 'openSync' && !sAnswers.size) {
          sAnswers.set('readFileSync', [answer(() => nodeFs.readFileSync(file, 'utf8'))]);
          sAnswers.set('readdirSync', [answer(() => nodeFs.readdirSync(dir))]);
        }
      }),
    );
    const qRecords = fileOwnerRecords(
      steppedFs((name) => {
        if (name === 'renameSync' && pClaimed === undefined) pClaimed = claim(pRecords, key, as(P));
        // Q has moved P's record aside and judged it live: S's create now.
        if (name === 'linkSync' && sClaimed === undefined) sClaimed = claim(sRecords, key, as(S));
      }),
    );
    const qClaimed = claim(qRecords, key, as(Q));
    expect(pClaimed).toBe(true);
    expect(qClaimed).toBe(false);
    // P still owns (it claimed, never released): S must not.
    expect(sClaimed).toBe(false);
    expect(ownerIn(key)).toBe(P.pid);
  });

  /**
   * The same, on a file system without hard links (link: EPERM): Q sees no file in place and
   * renames P's record back, over the record S made meanwhile. S's claim said true; the file names P.
   */
  it('without hard links, a record that cannot be put back stays aside and holds the job; one made in the gap backs off', () => {
    const key = newKey();
    const file = `${key}.owner`;
    writeFileSync(file, JSON.stringify(DEAD));
    const sAnswers = new Map<string, Answer[]>();
    let pClaimed: boolean | undefined;
    let sClaimed: boolean | undefined;
    let renames = 0;
    const noLinks = (name: string, args: unknown[]): Answer | undefined =>
      name === 'linkSync' ? { error: errno('EPERM', 'link', String(args[0])) } : undefined;
    const sRecords = fileOwnerRecords(
      steppedFs(
        () => {},
        (name, args) => replaying(sAnswers)(name) ?? noLinks(name, args),
      ),
    );
    const pRecords = fileOwnerRecords(
      steppedFs((name) => {
        if (name === 'openSync' && !sAnswers.size) {
          sAnswers.set('readFileSync', [answer(() => nodeFs.readFileSync(file, 'utf8'))]);
          sAnswers.set('readdirSync', [answer(() => nodeFs.readdirSync(dir))]);
        }
      }, noLinks),
    );
    const qRecords = fileOwnerRecords(
      steppedFs((name) => {
        if (name === 'renameSync' && ++renames === 1) pClaimed = claim(pRecords, key, as(P));
        // Q's put-back (a link, refused here): S makes its record in that gap, from what it read before.
        if (name === 'linkSync') sClaimed = claim(sRecords, key, as(S));
      }, noLinks),
    );
    expect(claim(qRecords, key, as(Q))).toBe(false);
    expect(pClaimed).toBe(true);
    expect(sClaimed).toBe(false);
    // P's record, left where Q moved it (never renamed back over another), still holds the job.
    expect(claim(fileOwnerRecords(), key, as(T))).toBe(false);
  });

  /**
   * Two processes' worth of steps plus a directory that cannot be listed for a moment (EMFILE): S
   * finds no owner file while P's is moved aside, cannot list the records being moved, reads "none",
   * and makes its own; Q's put-back fails and P's record is dropped. S cannot list the job either and
   * releases; then T takes the job P still runs.
   */
  it('a listing that fails while a live record is moved aside: the record is lost, and a later claimer takes a live job', () => {
    const key = newKey();
    writeFileSync(`${key}.owner`, JSON.stringify(DEAD));
    let pClaimed: boolean | undefined;
    let sClaimed: boolean | undefined;
    const pRecords = fileOwnerRecords(steppedFs(() => {}));
    const sRecords = fileOwnerRecords(
      steppedFs(
        () => {},
        (name) => (name === 'readdirSync' ? { error: errno('EMFILE', 'scandir', dir) } : undefined),
      ),
    );
    const qRecords = fileOwnerRecords(
      steppedFs((name) => {
        if (name === 'renameSync' && pClaimed === undefined) pClaimed = claim(pRecords, key, as(P));
        if (name === 'linkSync' && sClaimed === undefined) sClaimed = claim(sRecords, key, as(S));
      }),
    );
    expect(claim(qRecords, key, as(Q))).toBe(false);
    expect(pClaimed).toBe(true);
    if (sClaimed) release(sRecords, key, as(S)); // it cannot read the job (no listing): lets it go
    // P still runs the job: a later claimer on a healthy disk must not take it.
    expect(claim(fileOwnerRecords(), key, as(T))).toBe(false);
    // P's record holds it still: put back in place, or left where it was moved (never dropped).
    expect(heldBy(fileOwnerRecords(), key, as(T))).toContain(`process ${P.pid}`);
  });

  /**
   * P creates its record ('wx') and stalls in its write past the bound; Q takes the torn record for
   * abandoned, moves it aside and makes its own. P's write then fails (ENOSPC): P's clean-up removes
   * the file in place, Q's record, and T takes the job Q runs.
   */
  it("a maker whose stalled write fails after its record was taken over removes the taker's record", () => {
    const key = newKey();
    const file = `${key}.owner`;
    let qClaimed: boolean | undefined;
    const pRecords = fileOwnerRecords(
      steppedFs(
        (name) => {
          if (name === 'writeSync' && qClaimed === undefined) {
            const at = (Date.now() - 10 * 60_000) / 1000;
            utimesSync(file, at, at); // P stalled here ten minutes
            qClaimed = claim(fileOwnerRecords(), key, as(Q));
          }
        },
        (name) => (name === 'writeSync' ? { error: errno('ENOSPC', 'write', file) } : undefined),
      ),
    );
    expect(() => claim(pRecords, key, as(P))).toThrow(/ENOSPC|no space/i);
    expect(qClaimed).toBe(true);
    expect(ownerIn(key)).toBe(Q.pid);
    expect(claim(fileOwnerRecords(), key, as(T))).toBe(false);
  });
});
