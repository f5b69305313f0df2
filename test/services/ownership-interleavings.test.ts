/**
 * Two linedesks taking one job at once, through the owner files beside the jobs: each step of a
 * claim is one call on the disk, and the other claimer runs between any two of them (an injected
 * disk: the claims are synchronous, so the other one runs whole inside a gap). Whatever the
 * interleaving, at most one process owns the job (its claim said true and the file names it): two
 * owners could both send the job's pending lines, spending the credits twice.
 */
import * as nodeFs from 'node:fs';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fileOwnerRecords, type IntentFs } from '../../src/app/intent-file';
import { claim, heldBy, type Owner, type Processes, release } from '../../src/services/changes/ownership';

const dir = mkdtempSync(join(tmpdir(), 'owner-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let jobs = 0;
const newKey = () => join(dir, `job-${++jobs}.jsonl`);

const A: Owner = { pid: 100, start: 'a' };
const B: Owner = { pid: 200, start: 'b' };
/** A linedesk that ran the job before and died (its pid no longer runs). */
const DEAD: Owner = { pid: 300, start: 'c' };
const as = (self: Owner): Processes => ({ self, isAlive: (o) => o.pid === A.pid || o.pid === B.pid });

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

/**
 * The real disk, with `before(name, args)` called before each of its calls: a test runs the other
 * claimer there. `broken`: reads of this path fail (EACCES), as a file of another user would.
 */
function steppedFs(before: (name: string, args: unknown[]) => void, broken?: string): IntentFs {
  const real = nodeFs as unknown as Record<string, (...a: unknown[]) => unknown>;
  const fs: Record<string, (...a: unknown[]) => unknown> = {};
  for (const name of NAMES)
    fs[name] = (...args: unknown[]) => {
      before(name, args);
      if (broken !== undefined && name === 'readFileSync' && String(args[0]) === broken)
        throw Object.assign(new Error(`EACCES: permission denied, open '${broken}'`), {
          code: 'EACCES',
          path: broken,
        });
      return real[name]!(...args);
    };
  return fs as unknown as IntentFs;
}

const ownerIn = (key: string): number | null => {
  try {
    return (JSON.parse(nodeFs.readFileSync(`${key}.owner`, 'utf8')) as Owner).pid;
  } catch {
    return null;
  }
};

/** The pids the owner file, and the records being moved out of its way, name. */
const ownersNamed = (key: string): number[] => {
  const file = `${key}.owner`;
  const asides = nodeFs
    .readdirSync(dir)
    .filter((n) => n.startsWith(`${basename(file)}.`) && n.endsWith('.stale'));
  const pids: number[] = [];
  for (const f of [file, ...asides.map((n) => join(dir, n))])
    try {
      pids.push((JSON.parse(nodeFs.readFileSync(f, 'utf8')) as Owner).pid);
    } catch {}
  return pids;
};

describe('two claimers of one job, step by step', () => {
  it("a claim between the other's exclusive create and its write of the pid does not take the job", () => {
    const key = newKey();
    let bClaimed: boolean | undefined;
    let bSaw: string | null | undefined;
    const bRecords = fileOwnerRecords(steppedFs(() => {}));
    const aRecords = fileOwnerRecords(
      steppedFs((name) => {
        // A has created its owner file ('wx') and not yet written its pid: B looks now.
        if (name === 'writeSync' && bClaimed === undefined) {
          bSaw = heldBy(bRecords, key, as(B));
          bClaimed = claim(bRecords, key, as(B));
        }
      }),
    );
    expect(claim(aRecords, key, as(A))).toBe(true);
    expect(bClaimed).toBe(false);
    expect(bSaw).toBe(`another linedesk (writing its owner file ${key}.owner now)`);
    expect(ownerIn(key)).toBe(A.pid);
    expect(heldBy(bRecords, key, as(B))).toBe('another linedesk (process 100)');
  });

  it('a maker stalled past the bound between its create and its write, taken for abandoned, owns nothing', () => {
    const key = newKey();
    let bClaimed: boolean | undefined;
    const bRecords = fileOwnerRecords(steppedFs(() => {}));
    const aRecords = fileOwnerRecords(
      steppedFs((name) => {
        if (name === 'writeSync' && bClaimed === undefined) {
          // A stalls: its empty record is older than the bound when B looks.
          const at = (Date.now() - 10 * 60_000) / 1000;
          utimesSync(`${key}.owner`, at, at);
          bClaimed = claim(bRecords, key, as(B));
        }
      }),
    );
    expect(claim(aRecords, key, as(A))).toBe(false);
    expect(bClaimed).toBe(true);
    expect(ownerIn(key)).toBe(B.pid);
  });

  it('an owner file that cannot be read while its owner runs: never taken, and named with what to do', () => {
    const key = newKey();
    expect(claim(fileOwnerRecords(), key, as(A))).toBe(true);
    const bRecords = fileOwnerRecords(steppedFs(() => {}, `${key}.owner`));
    expect(claim(bRecords, key, as(B))).toBe(false);
    expect(heldBy(bRecords, key, as(B))).toBe(
      `another linedesk, maybe (its owner file ${key}.owner cannot be read: permission denied (EACCES); make it readable, or remove it once no other linedesk runs)`,
    );
    expect(ownerIn(key)).toBe(A.pid);
  });

  it('of two takers of a dead owner, one that moves the record after the other took it puts it back', () => {
    const key = newKey();
    writeFileSync(`${key}.owner`, JSON.stringify(DEAD));
    let bClaimed: boolean | undefined;
    const bRecords = fileOwnerRecords(steppedFs(() => {}));
    const aRecords = fileOwnerRecords(
      steppedFs((name) => {
        // A judged the dead owner gone; before it moves the record, B takes the job whole.
        if (name === 'renameSync' && bClaimed === undefined) bClaimed = claim(bRecords, key, as(B));
      }),
    );
    const aClaimed = claim(aRecords, key, as(A));
    expect(bClaimed).toBe(true);
    expect(aClaimed).toBe(false);
    expect(ownerIn(key)).toBe(B.pid);
  });

  it("a third claimer while a taker has moved a live owner's record aside by mistake: held by that owner", () => {
    const key = newKey();
    writeFileSync(`${key}.owner`, JSON.stringify(DEAD));
    const C: Owner = { pid: 500, start: 'e' };
    const live = (self: Owner): Processes => ({ self, isAlive: (o) => o.pid !== DEAD.pid });
    let bClaimed: boolean | undefined;
    let cClaimed: boolean | undefined;
    let cSaw: string | null | undefined;
    const plain = fileOwnerRecords(steppedFs(() => {}));
    const aRecords = fileOwnerRecords(
      steppedFs((name) => {
        // A judged the dead owner gone; B takes the job before A moves the record...
        if (name === 'renameSync' && bClaimed === undefined) bClaimed = claim(plain, key, live(B));
        // ...and A, having moved B's record, looks at it: C claims before it is put back.
        if (name === 'linkSync' && cClaimed === undefined) {
          cSaw = heldBy(plain, key, live(C));
          cClaimed = claim(plain, key, live(C));
        }
      }),
    );
    expect(claim(aRecords, key, live(A))).toBe(false);
    expect(bClaimed).toBe(true);
    expect(cClaimed).toBe(false);
    expect(cSaw).toBe('another linedesk (process 200)');
    expect(ownerIn(key)).toBe(B.pid);
  });
});

/** What is in the owner file before the two claim. */
const STARTS = ['none', 'dead owner', 'torn, just made', 'torn, abandoned', 'live third'] as const;
const THIRD: Owner = { pid: 400, start: 'd' };

function setUp(key: string, start: (typeof STARTS)[number]) {
  const file = `${key}.owner`;
  if (start === 'dead owner') writeFileSync(file, JSON.stringify(DEAD));
  if (start === 'live third') writeFileSync(file, JSON.stringify(THIRD));
  if (start.startsWith('torn')) writeFileSync(file, '');
  if (start === 'torn, abandoned') {
    const at = (Date.now() - 10 * 60_000) / 1000;
    utimesSync(file, at, at);
  }
}

describe('claimers in any interleaving (property)', () => {
  it('at most one owns the job at any time, and the owner file (or the record being moved) names it', () => {
    const C: Owner = { pid: 500, start: 'e' };
    fc.assert(
      fc.property(
        fc.constantFrom(...STARTS),
        fc.nat(20),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.nat(20), { nil: undefined }),
        (start, at, inner, releases, thirdAt) => {
          const key = newKey();
          setUp(key, start);
          // `inner` runs whole before the outer's step number `at` (and releases after, or not); a
          // third claimer, when drawn, before the outer's step number `thirdAt`.
          const [outer, innerOwner] = inner ? [A, B] : [B, A];
          const live = (self: Owner): Processes => ({
            self,
            isAlive: (o) => [A.pid, B.pid, C.pid, THIRD.pid].includes(o.pid),
          });
          const owners = new Set<number>();
          /**
           * Checked before every step of the outer claim: one owner at most, named by the file, or by
           * the record a taker is moving aside (a third claimer would see it there: `read`'s `moving`).
           */
          const check = () => {
            expect(owners.size).toBeLessThanOrEqual(1);
            for (const pid of owners) expect(ownersNamed(key)).toContain(pid);
          };
          let step = 0;
          let ran = false;
          const plain = fileOwnerRecords(steppedFs(() => {}));
          const outerRecords = fileOwnerRecords(
            steppedFs(() => {
              check();
              const now = step++;
              if (now === at) {
                ran = true;
                if (claim(plain, key, live(innerOwner))) owners.add(innerOwner.pid);
                check();
                if (releases && owners.has(innerOwner.pid)) {
                  release(plain, key, live(innerOwner));
                  owners.delete(innerOwner.pid);
                }
              }
              if (now === thirdAt) {
                ran = true;
                if (claim(plain, key, live(C))) owners.add(C.pid);
                check();
              }
            }),
          );
          if (claim(outerRecords, key, live(outer))) owners.add(outer.pid);
          check();
          // A live third linedesk's job is never taken.
          if (start === 'live third') expect(owners.size).toBe(0);
          // Nobody holds it when it was free to take and nothing ran inside: the outer took it.
          if (start !== 'live third' && start !== 'torn, just made' && !ran)
            expect(owners.has(outer.pid)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
