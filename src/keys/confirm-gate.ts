/**
 * The one gate between keys typed ahead and a dialog that spends credits or deletes (the action
 * dialog, the bulk preview, the resume dialog), or runs a program of yours on lines (its question). Over SSH keys arrive in bursts: the key that opens
 * a dialog and the Enter after it can come in one read, and the dialog is drawn after both were
 * handled. Three rules, all here, none in a dialog:
 *
 * - keys in the same read as the key that opened the dialog are dropped (the dialog says how many);
 * - a confirm key counts only once the dialog has been on screen, whole, for CONFIRM_ARM_MS, and not
 *   as the tail of a burst (the key before it less than BURST_GAP_MS earlier); otherwise the dialog
 *   stays and asks for the key again;
 * - a dialog that could not show its line, cost and balance (the terminal is too small) cannot be
 *   confirmed: it says why.
 *
 * When a dialog was drawn, and whether whole, the dialog reports (`guardDrawn`, through
 * ui/use-confirm-guard.ts); when each key arrived is read from the store's clock (`deps.now`), so a
 * test moves time instead of sleeping.
 */
import { affordability, pendingCounts } from '../domain/bulk';
import { actionBlocker, confirmBlocker } from '../store/action-slice';
import type { AppState, AppStore } from '../store/app-store';
import { bulkBalance, bulkBlocker, bulkRefusal } from '../store/bulk-slice';
import { selectBalanceToJudge } from '../store/selectors';
import { loaded } from '../store/types';
import { selectDialog } from '../store/view-stack';

/**
 * How long a confirm dialog is on screen before its confirm key counts. Firefox keeps the buttons
 * of its security dialogs dead for a moment for the same reason (a click or key meant for what was
 * there before); half a second is long enough to be meant and short enough not to be noticed.
 */
export const CONFIRM_ARM_MS = 500;
/** Keys closer together than this are typing, not a reply to what is on screen. */
export const BURST_GAP_MS = 150;

/**
 * What a confirm key would confirm now, as a string: a new string is a new thing to read (another
 * line, another cost, the affordable ones only), and arms again. Null when nothing spends on Enter.
 */
export function confirmSurface(s: AppState): string | null {
  const kind = selectDialog(s);
  if (kind === 'action') {
    const a = s.action;
    if (a?.phase !== 'review') return null;
    const who = a.line?.id ?? (a.body as { username?: string } | null)?.username ?? '';
    // The balance known or not, as the dialog says it ("not known now": the service refuses what it
    // does not cover; or the balance now and after): what Enter does is read anew when that changes.
    const balance = selectBalanceToJudge(s) === undefined ? 'balance unknown' : 'balance known';
    return `action:${a.op}:${who}:${a.months}:${a.connections}:${a.quote.status}:${loaded(a.quote)?.cost ?? ''}:${balance}:${startable(s)}`;
  }
  if (kind === 'bulk') {
    const b = s.bulk;
    if (b?.phase !== 'preview') return null;
    const total = pendingCounts(b.job.lines).costSum;
    // The balance known or not: with all the lines, what the preview says Enter does ("the balance
    // is unknown: the service refuses what it does not cover", or the total against the balance).
    // Only the affordable ones: the balance picks the lines and their total (a balance read anew
    // changes what Enter spends; one not known picks none, and Enter is refused). Kept per lines
    // and balance (domain/bulk.ts `affordability`).
    const balance = bulkBalance(s);
    const picked =
      balance === undefined
        ? 'balance unknown'
        : b.onlyAffordable
          ? ((a) => `${a.affordable.size}/${a.spent}`)(affordability(b.job.lines, balance))
          : 'balance known';
    return `bulk:${b.job.id}:${b.job.op}:${b.job.months}:${b.job.connections}:${b.onlyAffordable}:${b.quoting}:${total}:${picked}:${startable(s)}`;
  }
  if (kind === 'output') {
    // A program of yours on the lines named: a sender on every mark is not undone either.
    const r = s.userRun;
    if (r?.phase !== 'confirm') return null;
    return `output:${r.name}:${r.lines.length}:${r.lines[0]?.id ?? ''}:${r.lines.at(-1)?.id ?? ''}`;
  }
  if (kind === 'resume') {
    const r = s.recovery;
    if (!r || r.checking) return null;
    return `resume:${r.jobs.map((j) => `${j.job.id}/${j.unsent}`).join(',')}`;
  }
  return null;
}

/**
 * Whether the dialog on screen refuses its confirm or would act on it, for both spending dialogs: a
 * change between the two (a balance read again that now covers the job, a cost that came, a rule
 * that no longer holds) is a new thing to read, so it arms the confirm again. Only the two words,
 * never the refusal's text: its reason may change while it stays refused, and that acts on nothing.
 * A word or count still to type (delete) is not a refusal here: typing it is the reader's own act,
 * not a change to read, and every digit must not hold the Enter after it; what else refuses is kept
 * (the action dialog's rules as if the username were typed; the bulk preview's typed count comes
 * after every rule but "nothing to do", so it hides none that could refuse a free delete).
 */
export function startable(s: AppState): 'refused' | 'startable' {
  const kind = selectDialog(s);
  if (kind === 'action' && s.action) {
    const a = s.action;
    const typed = a.op === 'delete' ? { ...a, typed: a.line?.username ?? a.typed } : a;
    return confirmBlocker(typed, selectBalanceToJudge(s), s) === null ? 'startable' : 'refused';
  }
  if (kind === 'bulk' && s.bulk) {
    const r = bulkRefusal(s.bulk, bulkBalance(s));
    return r === null || r.code === 'typeToConfirm' ? 'startable' : 'refused';
  }
  return 'startable';
}

/** What the gate remembers of the keys of one store (one app). */
interface KeyMemory {
  /** Reads are counted: every key handled before the event loop turns came in the same read. */
  read: number;
  readOpen: boolean;
  lastKeyAt: number | null;
  /** The confirm dialog a key opened, and the read it came in. */
  opened: { readonly surface: string; readonly read: number } | null;
}

const memories = new WeakMap<AppStore, KeyMemory>();

/** One key as it arrived: its read, its time, and how long after the key before it. */
export interface KeyTurn {
  readonly read: number;
  readonly gap: number | null;
}

/**
 * Called once per key. Ink hands every key of one read to the handler without the event loop
 * turning (and one event may hold several characters), so a read ends at the next microtask.
 */
export function keyArrived(store: AppStore): KeyTurn {
  let m = memories.get(store);
  if (!m) {
    m = { read: 0, readOpen: false, lastKeyAt: null, opened: null };
    memories.set(store, m);
  }
  if (!m.readOpen) {
    const memory = m;
    memory.read++;
    memory.readOpen = true;
    queueMicrotask(() => {
      memory.readOpen = false;
    });
  }
  const at = store.getState().clock();
  const gap = m.lastKeyAt === null ? null : at - m.lastKeyAt;
  m.lastKeyAt = at;
  return { read: m.read, gap };
}

/**
 * Whether a key is dropped because it came in the same read as the key that opened the confirm
 * dialog on screen (or changed what it confirms): it was typed before the dialog could be seen.
 * Ctrl-C is never dropped.
 */
export function typedAhead(store: AppStore, turn: KeyTurn, name: string): boolean {
  if (name === 'ctrl+c') return false;
  const s = store.getState();
  const surface = confirmSurface(s);
  if (!surface || memories.get(store)?.opened?.read !== turn.read) return false;
  s.guardHeld(surface, 'dropped');
  return true;
}

/**
 * Whether a confirm key is held back: the dialog could not show its line, cost and balance (said
 * in the flash line; the dialog says it too), or the key came too soon after the dialog was drawn
 * or at the tail of a burst (the dialog asks for it again).
 */
export function confirmHeld(store: AppStore, turn: KeyTurn): boolean {
  const s = store.getState();
  const surface = confirmSurface(s);
  // Nothing spends on this key now, or the dialog refuses it anyway: its own reason is said.
  if (!surface || refusedAnyway(s)) return false;
  const g = s.guard?.surface === surface ? s.guard : null;
  if (g?.hidden) {
    s.notify(`Not confirmed: ${g.hidden}`, 'error');
    return true;
  }
  const tooSoon = !g || g.shownAt === null || s.clock() - g.shownAt < CONFIRM_ARM_MS;
  const inBurst = turn.gap !== null && turn.gap < BURST_GAP_MS;
  if (!tooSoon && !inBurst) return false;
  s.guardHeld(surface, 'early');
  return true;
}

/** The dialog's own rule refuses a confirm now (the balance, a cost still asked for, a word to type). */
function refusedAnyway(s: AppState): boolean {
  const kind = selectDialog(s);
  if (kind === 'action' && s.action) return actionBlocker(s) !== null;
  if (kind === 'bulk' && s.bulk) return bulkBlocker(s.bulk, bulkBalance(s)) !== null;
  return false;
}

/**
 * After a key ran: when it opened a confirm dialog, or changed what it confirms, the rest of its
 * read is typed ahead of what is now on screen.
 */
export function keyDone(store: AppStore, turn: KeyTurn, before: string | null): void {
  const after = confirmSurface(store.getState());
  const m = memories.get(store);
  if (m && after && after !== before) m.opened = { surface: after, read: turn.read };
}
