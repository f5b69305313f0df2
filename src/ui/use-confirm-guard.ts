import { useEffect, useLayoutEffect, useReducer } from 'react';
import { CONFIRM_ARM_MS, confirmSurface } from '../keys/confirm-gate';
import { useApp, useAppStore } from './store-context';

/** What a confirm dialog says about its confirm key (keys/confirm-gate.ts decides; this only tells). */
interface GuardView {
  /** On screen, whole, long enough: the confirm key counts. */
  readonly armed: boolean;
  /** A confirm key came too soon: the dialog asks for it again. */
  readonly early: boolean;
  /** Keys typed ahead of the dialog, dropped. */
  readonly dropped: number;
}

/**
 * Reports to the key gate that a confirm dialog was drawn, and whether whole (`hidden`: what it
 * could not show, said instead of confirming). A layout effect: it runs in the commit that drew the
 * frame, so the gate's "drawn at" is the frame's. Re-renders once the arm delay has passed.
 */
export function useConfirmGuard(hidden: string | null): GuardView {
  const store = useAppStore();
  const surface = useApp(confirmSurface);
  const shownAt = useApp((s) => (s.guard && s.guard.surface === surface ? s.guard.shownAt : null));
  const early = useApp((s) => s.guard?.surface === surface && s.guard.early);
  const dropped = useApp((s) => (s.guard?.surface === surface ? s.guard.dropped : 0));
  const [ticks, tick] = useReducer((n: number) => n + 1, 0);

  useLayoutEffect(() => {
    if (!surface) return;
    return () => store.getState().guardGone(surface);
  }, [surface, store]);
  useLayoutEffect(() => {
    if (surface) store.getState().guardDrawn(surface, hidden);
  }, [surface, hidden, store]);

  const armed = shownAt !== null && store.getState().clock() - shownAt >= CONFIRM_ARM_MS;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a tick that finds the clock short of the delay (a test's clock) sets the timer again
  useEffect(() => {
    if (shownAt === null || armed) return;
    const left = CONFIRM_ARM_MS - (store.getState().clock() - shownAt);
    const timer = setTimeout(tick, Math.max(20, left));
    timer.unref?.();
    return () => clearTimeout(timer);
  }, [shownAt, armed, store, ticks]);

  return { armed, early, dropped };
}

/** "2 keys typed ahead of this dialog were ignored", or null. */
export function droppedNote(v: GuardView): string | null {
  if (!v.dropped) return null;
  return `${v.dropped} key${v.dropped === 1 ? '' : 's'} typed ahead of this dialog ${v.dropped === 1 ? 'was' : 'were'} ignored`;
}

/**
 * What a dialog's hint line says of its confirm key, for `said` (commands/hints.ts) to put beside the
 * key: what it does once armed; until then that it waits (never "Enter confirms" before Enter would);
 * after a key that came too soon, to press it again.
 */
export function confirmDoes(v: GuardView, does: string): string | ((key: string) => string) {
  if (v.early) return (key) => `Nothing was sent: press ${key} again to confirm`;
  if (!v.armed) return 'waits a moment: read this first';
  return does;
}
