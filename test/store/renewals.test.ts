import { describe, expect, it, vi } from 'vitest';
import { command } from '../../src/commands/keymap';
import { extendEstimate } from '../../src/domain/estimate';
import { DAY_MS } from '../../src/domain/pricing';
import { planRenewals, stepWindow } from '../../src/domain/renewals';
import { resolveKey } from '../../src/keys/dispatch';
import type { Settings, SettingsApi } from '../../src/store/deps';
import { selectRenewalsPlan } from '../../src/store/renewals-slice';
import { loaded } from '../../src/store/types';
import { storeOnSandbox } from '../helpers/app';

type Row = { id: string; exp_date: number | null; enabled: number; is_trial: number };

/** Settings kept in memory, as the config file would keep them. */
function memorySettings(initial: Partial<Settings> = {}): SettingsApi & { saved: Partial<Settings>[] } {
  let s: Settings = { window: { withinDays: 7, expiredDays: 30 }, lowBalance: null, ...initial };
  const saved: Partial<Settings>[] = [];
  return {
    saved,
    read: () => s,
    save(patch) {
      saved.push(patch);
      s = { ...s, ...patch };
      return null;
    },
  };
}

async function renewalsEnv(settings = memorySettings()) {
  // A clock of our own: the books are judged at the same instant the view is.
  const now = Date.now();
  const env = await storeOnSandbox({ lines: 600 }, { now: () => now, settings });
  await env.store.getState().start();
  await vi.waitFor(() => expect(env.store.getState().packages.status).toBe('ready'));
  const rows = env.sb.repo.db
    .prepare('SELECT id, exp_date, enabled, is_trial FROM lines WHERE account_id = 1')
    .all() as Row[];
  return { ...env, now, rows, settings };
}

describe('renewals, from the list endpoint alone', () => {
  it('more than a page of lines expired in the window: every one listed (a backward page asked for 101)', async () => {
    const { store, now, sb } = await renewalsEnv();
    // 250 lines expired in the last ten days, enabled: more than two backward pages.
    const ids = (
      sb.repo.db.prepare('SELECT id FROM lines WHERE account_id = 1 LIMIT 250').all() as { id: string }[]
    ).map((r) => r.id);
    const set = sb.repo.db.prepare('UPDATE lines SET exp_date = ?, enabled = 1, is_trial = 0 WHERE id = ?');
    for (const [k, id] of ids.entries()) set.run(now - DAY_MS - k * 3_000_000, id);
    await store.getState().loadRenewals();
    expect(store.getState().renewals.status).toBe('ready');
    const expired = new Set(
      selectRenewalsPlan(store.getState())!
        .rows.filter((r) => r.group === 'expired')
        .map((r) => r.line.id),
    );
    for (const id of ids) expect(expired.has(id)).toBe(true);
  });

  it('groups equal the books: expiring within the window, expired lately, suspended; trials apart', async () => {
    const { store, now, rows } = await renewalsEnv();
    await store.getState().loadRenewals();
    const s = store.getState();
    const plan = selectRenewalsPlan(s)!;
    const ids = (g: string) => new Set(plan.rows.filter((r) => r.group === g).map((r) => r.line.id));
    const exp = (r: Row) => r.exp_date ?? Number.POSITIVE_INFINITY;
    const expiring = rows.filter((r) => exp(r) > now && exp(r) <= now + 7 * DAY_MS);
    const expired = rows.filter((r) => exp(r) <= now && exp(r) >= now - 30 * DAY_MS);
    const listed = new Set([...expiring, ...expired].map((r) => r.id));
    // A suspended line with paid time (or none to run out) needs an unsuspend, wherever it was found.
    const paid = (r: Row) => !r.enabled && exp(r) > now;
    const suspended = rows.filter((r) => !r.enabled && !listed.has(r.id));
    const all = [...expiring, ...expired, ...suspended];
    expect(expiring.length).toBeGreaterThan(0);
    expect(expired.length).toBeGreaterThan(0);
    const renewal = (r: Row) => !r.is_trial && !paid(r);
    expect(ids('expiring')).toEqual(new Set(expiring.filter(renewal).map((r) => r.id)));
    expect(ids('expired')).toEqual(new Set(expired.filter(renewal).map((r) => r.id)));
    expect(ids('suspended')).toEqual(new Set(suspended.filter(renewal).map((r) => r.id)));
    expect(ids('unsuspend')).toEqual(new Set(all.filter((r) => !r.is_trial && paid(r)).map((r) => r.id)));
    expect(ids('unsuspend').size).toBeGreaterThan(0);
    expect(ids('trial')).toEqual(new Set(all.filter((r) => r.is_trial).map((r) => r.id)));
    // Priced as extend is: the package price for the line's connections, an estimate.
    const packages = loaded(s.packages)!;
    for (const r of plan.rows.filter((x) => x.group !== 'trial' && x.group !== 'unsuspend'))
      expect(r.cost).toBe(extendEstimate(packages, 1, r.line.connections)?.cost ?? null);
    expect(plan.total).toBe(plan.rows.reduce((n, r) => n + (r.cost ?? 0), 0));
    // Soonest first within the expiring group.
    const soon = plan.rows.filter((r) => r.group === 'expiring').map((r) => r.line.exp_date!.ms!);
    expect(soon).toEqual([...soon].sort((a, b) => a - b));
  });

  it('] lengthens the window, saves it in the settings, and lists more', async () => {
    const env = await renewalsEnv();
    await env.store.getState().loadRenewals();
    const before = selectRenewalsPlan(env.store.getState())!.groups[0]!.count;
    env.store.getState().navigate('renewals');
    expect(resolveKey(env.store.getState(), command('renewals.longer').keys[0]!)?.id).toBe('renewals.longer');
    command('renewals.longer').run(env.store.getState(), { copy: async () => ({ ok: false, why: '' }) });
    expect(env.settings.saved.at(-1)).toEqual({ window: { withinDays: 14, expiredDays: 30 } });
    await vi.waitFor(() => expect(env.store.getState().renewals.status).toBe('ready'));
    const after = selectRenewalsPlan(env.store.getState())!.groups[0]!.count;
    const truth = env.rows.filter(
      (r) =>
        !r.is_trial &&
        r.enabled &&
        r.exp_date !== null &&
        r.exp_date > env.now &&
        r.exp_date <= env.now + 14 * DAY_MS,
    ).length;
    expect(after).toBe(truth);
    expect(after).toBeGreaterThan(before);
    // A new store reads the saved window.
    const again = await renewalsEnv(env.settings);
    expect(again.store.getState().renewalsWindow.withinDays).toBe(14);
  });

  it('a marks every renewable line (never a trial); e opens one bulk extend over them', async () => {
    const { store } = await renewalsEnv();
    store.getState().navigate('renewals');
    await store.getState().loadRenewals();
    const plan = selectRenewalsPlan(store.getState())!;
    const fx = { copy: async () => ({ ok: false as const, why: '' }) };
    command('renewals.markAll').run(store.getState(), fx);
    const renewable = plan.rows
      .filter((r) => r.group !== 'trial' && r.group !== 'unsuspend')
      .map((r) => r.line.id);
    expect(new Set(store.getState().marked.keys())).toEqual(new Set(renewable));
    expect(command('line.extend').disabled?.(store.getState())).toBeNull();
    command('line.extend').run(store.getState(), fx);
    expect(store.getState().bulk?.job.op).toBe('extend');
    expect(new Set(store.getState().bulk!.job.lines.map((l) => l.id))).toEqual(new Set(renewable));
  });
});

describe('renewals, pure', () => {
  const line = (id: string, trial = false, connections = 1) =>
    ({ id, username: id, is_trial: trial, connections, enabled: true, exp_date: null }) as never;
  const pkgs = [
    { id: 1, duration: 1, is_trial: false, credits_cost: 10, extra_connection_credits_cost: 5 },
  ] as never;
  it('each line once, in its first group; trials apart; the balance covers renewals in order', () => {
    const plan = planRenewals(
      {
        expiring: [line('a'), line('t', true)],
        expired: [line('a'), line('b', false, 3)],
        suspended: [
          { ...(line('c') as object), enabled: false, exp_date: { ms: 0, raw: '1970-01-01' } } as never,
        ],
      },
      pkgs,
      1,
      25,
      { withinDays: 7, expiredDays: 30 },
      Date.UTC(2026, 10, 25),
    );
    expect(plan.rows.map((r) => `${r.group}:${r.line.id}`)).toEqual([
      'expiring:a',
      'expired:b',
      'suspended:c',
      'trial:t',
    ]);
    expect(plan.rows.map((r) => r.cost)).toEqual([10, 20, 10, null]);
    expect(plan.total).toBe(40);
    expect(plan.covered).toBe(1); // 10 fits, 10 + 20 does not
    expect(plan.renewable).toBe(3);
  });
  it('the window steps through 1, 3, 7, 14, 28, 60, 90 and stops at the ends', () => {
    expect(stepWindow(7, 1)).toBe(14);
    expect(stepWindow(7, -1)).toBe(3);
    expect(stepWindow(1, -1)).toBe(1);
    expect(stepWindow(90, 1)).toBe(90);
    expect(stepWindow(10, 1)).toBe(14);
    expect(stepWindow(10, -1)).toBe(7);
  });
});
