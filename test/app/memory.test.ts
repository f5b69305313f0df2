import { describe, expect, it } from 'vitest';
import {
  createMemoryKeeper,
  GIVE_BACK_AFTER_MS,
  HEAVY_FLAGS,
  HOLD_FLAGS,
  START_FLAGS,
  TRIM_AFTER_MS,
} from '../../src/app/memory';

/** The keeper on a clock the test moves: timers run when `advance` passes them, nothing else. */
function keeper() {
  let now = 0;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const flags: string[] = [];
  const collected: number[] = [];
  const trimmed: number[] = [];
  const k = createMemoryKeeper({
    setFlags: (f) => flags.push(f),
    collect: () => collected.push(now),
    trim: () => trimmed.push(now),
    schedule: (fn, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
    },
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
  return { k, flags, collected, trimmed, advance, pending: () => timers.size };
}

describe('memory keeper: flags', () => {
  it('turns Turbofan off at start and holds the old space once the first frame is drawn', () => {
    const { k, flags } = keeper();
    k.start();
    expect(flags).toEqual([START_FLAGS]);
    k.hold();
    k.hold();
    expect(flags).toEqual([START_FLAGS, `${START_FLAGS} ${HOLD_FLAGS}`]);
  });

  it('a walk has Turbofan on for its length; its end brings the browsing flags back, then one collection', () => {
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
    expect(collected).toHaveLength(1);
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

describe('memory keeper: the C allocator trimmed while the app is used', () => {
  it('once a change of state is TRIM_AFTER_MS old, at most once in that time; nothing before the first frame or while unused', () => {
    const { k, trimmed, advance, pending } = keeper();
    k.start();
    k.active(); // before the first frame: the start's path is left alone
    expect(pending()).toBe(0);
    k.hold();
    k.active();
    advance(TRIM_AFTER_MS / 2);
    k.active(); // a key meanwhile: the same trim
    expect(trimmed).toEqual([]);
    advance(TRIM_AFTER_MS / 2);
    expect(trimmed).toEqual([TRIM_AFTER_MS]);
    advance(TRIM_AFTER_MS * 10); // unused: nothing more
    expect(trimmed).toHaveLength(1);
    expect(pending()).toBe(0);
    for (let i = 0; i < 30; i++) {
      k.active(); // browsing: a trim every TRIM_AFTER_MS
      advance(TRIM_AFTER_MS / 10);
    }
    expect(trimmed).toHaveLength(4);
  });

  it('not during a walk; after it, with the collection that gives back what it grew', () => {
    const { k, trimmed, collected, advance } = keeper();
    k.start();
    k.hold();
    const end = k.heavyWork();
    k.active();
    advance(TRIM_AFTER_MS * 2);
    expect(trimmed).toEqual([]);
    end();
    advance(GIVE_BACK_AFTER_MS);
    expect(collected).toHaveLength(1);
    expect(trimmed).toEqual(collected);
  });
});
