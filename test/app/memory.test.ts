import { describe, expect, it } from 'vitest';
import {
  type Collection,
  createMemoryKeeper,
  GIVE_BACK_AFTER_MS,
  HEAVY_FLAGS,
  HOLD_FLAGS,
  IDLE_AFTER_MS,
  IDLE_GAP_MS,
  START_FLAGS,
} from '../../src/app/memory';

/** The keeper on a clock the test moves: timers run when `advance` passes them, nothing else. */
function keeper() {
  let now = 0;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const flags: string[] = [];
  const collected: Array<{ kind: Collection; at: number }> = [];
  const k = createMemoryKeeper({
    setFlags: (f) => flags.push(f),
    collect: (kind) => collected.push({ kind, at: now }),
    schedule: (fn, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return () => timers.delete(id);
    },
    now: () => now,
  });
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = end;
  };
  return { k, flags, collected, advance, pending: () => timers.size };
}

describe('memory keeper: flags', () => {
  it('turns the compilers off at start and holds the old space once the first frame is drawn', () => {
    const { k, flags } = keeper();
    k.start();
    expect(flags).toEqual([START_FLAGS]);
    k.hold();
    k.hold();
    expect(flags).toEqual([START_FLAGS, `${START_FLAGS} ${HOLD_FLAGS}`]);
  });

  it('a walk has the compilers on for its length; its end brings the browsing flags back, then one collection', () => {
    const { k, flags, collected, advance } = keeper();
    k.start();
    k.hold();
    flags.length = 0;
    const endA = k.heavyWork();
    const endB = k.heavyWork();
    expect(flags).toEqual([HEAVY_FLAGS]);
    endA();
    endA(); // a second call of the same end counts once
    advance(GIVE_BACK_AFTER_MS * 10);
    expect(flags).toEqual([HEAVY_FLAGS]); // one walk still runs
    expect(collected).toEqual([]);
    endB();
    expect(flags).toEqual([HEAVY_FLAGS, `${START_FLAGS} ${HOLD_FLAGS}`]);
    expect(collected).toEqual([]); // its last frame is drawn first
    advance(GIVE_BACK_AFTER_MS);
    expect(collected.map((c) => c.kind)).toEqual(['after-walk']);
  });

  it('the first frame during a walk leaves its flags alone until it ends', () => {
    const { k, flags } = keeper();
    k.start();
    const end = k.heavyWork();
    k.hold();
    expect(flags).toEqual([START_FLAGS, HEAVY_FLAGS]);
    end();
    expect(flags.at(-1)).toBe(`${START_FLAGS} ${HOLD_FLAGS}`);
  });
});

describe('memory keeper: the idle collection', () => {
  it('never runs while keys arrive, runs once when they pause, and not again without a key', () => {
    const { k, collected, advance } = keeper();
    k.start();
    k.hold();
    // A key every pause shorter than the idle wait, for far longer than the wait and the gap.
    for (let i = 0; i < 200; i++) {
      k.input();
      advance(IDLE_AFTER_MS - 1);
    }
    expect(collected).toEqual([]);
    advance(1);
    expect(collected.map((c) => c.kind)).toEqual(['idle']);
    advance(IDLE_GAP_MS * 10); // left alone: nothing more to give back
    expect(collected).toHaveLength(1);
  });

  it('is at most one a gap, however many pauses', () => {
    const { k, collected, advance } = keeper();
    for (let i = 0; i < 20; i++) {
      k.input();
      advance(IDLE_AFTER_MS + 1); // a pause long enough each time
    }
    const times = collected.map((c) => c.at);
    expect(times.length).toBeGreaterThan(1);
    for (let i = 1; i < times.length; i++)
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(IDLE_GAP_MS);
    // Put off to the end of the gap, it still waits for the keys to pause.
    const before = collected.length;
    for (let i = 0; i < 200; i++) {
      k.input();
      advance(IDLE_AFTER_MS - 1);
    }
    expect(collected).toHaveLength(before);
  });

  it('never runs during a walk (the walk ends with its own collection)', () => {
    const { k, collected, advance } = keeper();
    k.start();
    k.hold();
    k.input();
    const end = k.heavyWork();
    advance(IDLE_AFTER_MS + IDLE_GAP_MS);
    expect(collected).toEqual([]);
    end();
    advance(GIVE_BACK_AFTER_MS);
    expect(collected.map((c) => c.kind)).toEqual(['after-walk']);
  });
});
