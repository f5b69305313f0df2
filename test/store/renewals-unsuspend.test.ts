import { describe, expect, it, vi } from 'vitest';
import { command } from '../../src/commands/keymap';
import { DAY_MS } from '../../src/domain/pricing';
import { planRenewals } from '../../src/domain/renewals';
import { selectRenewalsPlan } from '../../src/store/renewals-slice';
import { storeOnSandbox } from '../helpers/app';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const NOW = Date.UTC(2026, 10, 25, 12);
const at = (ms: number) => ({ ms, raw: new Date(ms).toISOString() });
const line = (id: string, enabled: boolean, expMs: number | null) =>
  ({
    id,
    username: id,
    is_trial: false,
    connections: 1,
    enabled,
    exp_date: expMs === null ? null : at(expMs),
  }) as never;
const pkgs = [
  { id: 1, duration: 1, is_trial: false, credits_cost: 10, extra_connection_credits_cost: 5 },
] as never;

/** Suspends one line that still has `days` of paid time, in the sandbox's books. */
function suspendWithPaidTime(env: Awaited<ReturnType<typeof sandbox>>, days: number, now: number) {
  const row = env.sb.repo.db
    .prepare('SELECT id, username FROM lines WHERE account_id = 1 AND is_trial = 0 ORDER BY id LIMIT 1')
    .get() as { id: string; username: string };
  env.sb.repo.db
    .prepare('UPDATE lines SET enabled = 0, exp_date = ? WHERE id = ?')
    .run(now + days * DAY_MS, row.id);
  return row;
}

describe('a suspended line with paid time needs an unsuspend, not a renewal', () => {
  it('pure: listed under unsuspend, free, outside the renewals count and total', () => {
    const plan = planRenewals(
      {
        expiring: [line('soon', true, NOW + 2 * DAY_MS)],
        expired: [line('gone', false, NOW - 3 * DAY_MS)],
        suspended: [
          line('paid', false, NOW + 284 * DAY_MS),
          line('never', false, null),
          line('gone', false, NOW - 3 * DAY_MS),
        ],
      },
      pkgs,
      1,
      null,
      { withinDays: 7, expiredDays: 30 },
      NOW,
    );
    expect(plan.rows.map((r) => `${r.group}:${r.line.id}:${r.cost}`)).toEqual([
      'expiring:soon:10',
      'expired:gone:10',
      'unsuspend:paid:0',
      'unsuspend:never:0',
    ]);
    expect(plan.renewable).toBe(2);
    expect(plan.total).toBe(20);
    expect(plan.groups.find((g) => g.group === 'unsuspend')).toMatchObject({ count: 2, subtotal: 0 });
  });

  it('store: the view lists it so, the total leaves it out, and the reminders export skips it', async () => {
    const now = Date.now();
    const env = await sandbox({ lines: 200 });
    const paid = suspendWithPaidTime(env, 284, now);
    const written: string[] = [];
    const { store } = await storeOnSandbox(
      {},
      {
        now: () => now,
        writeExport: (name, text) => {
          written.push(text);
          return name;
        },
      },
      env,
    );
    await store.getState().start();
    await vi.waitFor(() => expect(store.getState().packages.status).toBe('ready'));
    await store.getState().loadRenewals();
    const plan = selectRenewalsPlan(store.getState())!;
    const row = plan.rows.find((r) => r.line.id === paid.id)!;
    expect(row.group).toBe('unsuspend');
    expect(row.cost).toBe(0);
    const renewals = plan.rows.filter((r) => r.group !== 'trial' && r.group !== 'unsuspend');
    expect(plan.renewable).toBe(renewals.length);
    expect(plan.total).toBe(renewals.reduce((n, r) => n + (r.cost ?? 0), 0));
    // `x` on the renewals: every renewable line's message, not the suspended one's.
    store.getState().navigate('renewals');
    const s = store.getState();
    command('messages.export').run(s, {} as never);
    expect(store.getState().messages?.mode).toBe('export');
    const reminder = store.getState().templates.findIndex((t) => t.id === 'reminder');
    store.getState().moveMessageCursor(reminder - store.getState().messages!.cursor);
    store.getState().exportMessages();
    expect(written.length).toBe(2);
    expect(written[0]).not.toContain(paid.username);
    expect(written[0]).toContain(renewals[0]!.line.username);
  });

  it('headless: renewals --json puts it in the unsuspend group, outside the total', async () => {
    const now = Date.now();
    const env = await sandbox({ lines: 200, now: () => now });
    const paid = suspendWithPaidTime(env, 284, now);
    const r = await headless(['renewals', '--json'], {
      env: envFor(env.sb.baseUrl, DEMO_KEY),
      now: () => now,
    });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      total: number;
      renewable: number;
      rows: { id: string; group: string; cost: number | null }[];
    };
    expect(out.rows.find((x) => x.id === paid.id)).toMatchObject({ group: 'unsuspend', cost: 0 });
    const renewals = out.rows.filter((x) => x.group !== 'trial' && x.group !== 'unsuspend');
    expect(out.renewable).toBe(renewals.length);
    expect(out.total).toBe(renewals.reduce((n, x) => n + (x.cost ?? 0), 0));
  });
});
