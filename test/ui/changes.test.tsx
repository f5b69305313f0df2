import { describe, expect, it } from 'vitest';
import { loaded } from '../../src/domain/load';
import { CONFIRM_ARM_MS } from '../../src/keys/confirm-gate';
import { memoryJournal } from '../../src/services/changes/journal';
import { selectDialog } from '../../src/store/view-stack';
import { renderApp } from '../helpers/app';
import { books } from '../helpers/sandbox';

const start = async (
  opts: Parameters<typeof renderApp>[0] = {},
  deps: Parameters<typeof renderApp>[1] = {},
) => {
  const journal = memoryJournal();
  const app = await renderApp(opts, { journal, ...deps });
  await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
  return { ...app, journal };
};
const lineById = (app: Awaited<ReturnType<typeof start>>, id: string) =>
  app.sb.repo.db.prepare('SELECT * FROM lines WHERE id = ?').get(id) as
    | { exp_date: number; connections: number; enabled: number }
    | undefined;

describe('every change, confirmed with its cost, against the sandbox', () => {
  it('extend: the dialog shows the estimate; the charge equals it; the row and balance update', async () => {
    const app = await start();
    await app.press('lines.filterType'); // premium
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('estimate from package prices'));
    await app.press('action.increase'); // 3 months
    await app.waitFrame((f) => f.includes('‹ 3 months ›'));
    const cost = Number(/Cost\s+(\d+) credits/.exec(app.frame())![1]);
    const before = lineById(app, line.id)!.exp_date;
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Charged'));
    const b = books(app.sb);
    expect(b.ledger.at(-1)).toMatchObject({ operation: 'extend', amount: cost, line_id: line.id });
    expect(b.balance).toBe(1000 - cost);
    expect(lineById(app, line.id)!.exp_date).toBeGreaterThan(before);
    expect(app.frame()).toContain(`${1000 - cost} credits`);
    expect(app.journal.entries.at(-1)).toMatchObject({
      operation: 'extend',
      quotedCost: cost,
      deducedCredits: cost,
      outcome: 'applied',
      estimate: true,
    });
  });

  it('upgrade: the server quote is shown and charged; trial lines cannot be upgraded', async () => {
    const app = await start();
    await app.press('lines.filterStatus'); // active
    await app.waitFrame((f) => f.includes('status active') && !f.includes('loading'));
    const lines = loaded(app.store.getState().lines)!.lines;
    const cursor = lines.findIndex((l) => !l.is_trial && l.connections < 6);
    for (let i = 0; i < cursor; i++) await app.press('lines.down');
    const line = lines[cursor]!;
    await app.press('line.upgrade');
    await app.waitFrame((f) => f.includes('quoted by the server'));
    const cost = Number(/Cost\s+(\d+) credits/.exec(app.frame())![1]);
    const { cost: quote } = await app.client.simulateUpgrade({
      id: line.id,
      new_connections: line.connections + 1,
    });
    expect(cost).toBe(quote);
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Charged'));
    expect(lineById(app, line.id)!.connections).toBe(line.connections + 1);
    expect(books(app.sb).spent).toBe(cost);
    await app.press('action.cancel');
    await app.press('lines.filterType');
    await app.press('lines.filterType'); // trial
    await app.waitFrame((f) => f.includes('type trial') && !f.includes('loading'));
    await app.press('line.upgrade');
    await app.waitFrame((f) => f.includes('Trial lines have one connection'));
  });

  it('create: form, simulated cost, exactly that charge, the new credentials shown and copyable', async () => {
    const app = await start();
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —') && f.includes('‹ Premium'));
    await app.press('form.increase'); // 3 months
    await app.press('form.next');
    await app.press('form.increase'); // 2 connections
    await app.press('form.next');
    await app.type('resellerprobe01');
    await app.press('form.next');
    await app.press('form.next');
    await app.type('Hotel 7');
    for (let i = 0; i < 4; i++) await app.press('form.next'); // → bouquets
    await app.press('form.toggle');
    await app.waitFrame((f) => f.includes('filter:'));
    await app.type('ukspo');
    await app.waitFrame((f) => f.includes('UK Sports') && !f.includes('UK News'));
    await app.press('picker.toggle');
    await app.press('picker.done');
    await app.waitFrame((f) => f.includes('1 chosen'));
    await app.press('form.submit');
    await app.waitFrame((f) => f.includes('quoted by the server'));
    const cost = Number(/Cost\s+(\d+) credits/.exec(app.frame())![1]);
    expect(cost).toBe(3 + 2); // 3-month package + one extra connection
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Charged'));
    const created = app.sb.repo.findLine(1, { username: 'resellerprobe01' })!;
    expect(created).toMatchObject({ connections: 2, label: 'Hotel 7' });
    expect(app.sb.repo.lineBouquets(created.id)).toHaveLength(1);
    expect(books(app.sb).ledger.at(-1)).toMatchObject({ operation: 'create', amount: cost });
    expect(app.frame()).toContain(created.password);
    await app.press('action.copy');
    expect(app.copied).toEqual([`resellerprobe01\n${created.password}`]);
    const entry = app.journal.entries.at(-1)!;
    expect(entry).toMatchObject({ operation: 'create', username: 'resellerprobe01', deducedCredits: cost });
    expect(JSON.stringify(app.journal.entries)).not.toContain(created.password);

    // The next line can take the same bouquets, from the journal (the API never returns them).
    await app.press('action.cancel');
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —') && f.includes('‹ Premium'));
    expect(app.store.getState().form!.values.bouquets).toEqual([]);
    app.store.setState({ form: { ...app.store.getState().form!, focus: 'bouquets' } });
    await app.press('form.toggle');
    await app.press('picker.same');
    await app.waitFrame((f) => f.includes('Same bouquets as resellerprobe01'));
    expect(app.store.getState().form!.values.bouquets).toEqual(app.sb.repo.lineBouquets(created.id));
  });

  it('trial: no connections field; a random username is sent so the line can be found', async () => {
    const app = await start();
    await app.press('line.trial');
    await app.waitFrame((f) => f.includes('New trial line') && f.includes('‹ Trial'));
    expect(app.frame()).not.toContain('Connections');
    await app.press('form.submit');
    await app.waitFrame((f) => f.includes('quoted by the server'));
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Password') && f.includes('done'));
    expect(app.sb.repo.linesCount(1)).toBe(61);
  });

  it('unsuspend asks once; delete asks to type the username, cancel is the default', async () => {
    const app = await start();
    await app.press('lines.filterStatus');
    await app.press('lines.filterStatus'); // suspended
    await app.waitFrame((f) => f.includes('status suspended') && !f.includes('loading'));
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    await app.press('line.unsuspend');
    await app.waitFrame((f) => f.includes('Unsuspend'));
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('done'));
    expect(lineById(app, line.id)!.enabled).toBe(1);
    await app.press('action.cancel');
    const victim = loaded(app.store.getState().lines)!.lines[0]!;
    await app.press('line.delete');
    await app.waitFrame((f) => f.includes('Type username'));
    await app.press('action.confirm'); // nothing typed: refused
    await app.waitFrame((f) => f.includes('Type the username to confirm'));
    expect(lineById(app, victim.id)).toBeDefined();
    await app.type(victim.username);
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('done'));
    expect(lineById(app, victim.id)).toBeUndefined();
    expect(books(app.sb).ledger).toHaveLength(0);
  });

  it('Enter pressed five times quickly sends one request and charges once', async () => {
    const app = await start();
    await app.press('lines.filterType');
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('estimate from package prices'));
    app.sb.faults.set('latency=150');
    app.clock.advance(CONFIRM_ARM_MS); // the dialog has been read: the first Enter counts
    app.ui.stdin.write('\r\r\r\r\r');
    for (let i = 0; i < 5; i++) app.ui.stdin.write('\r');
    await app.waitFrame((f) => f.includes('Charged'));
    expect(books(app.sb).ledger).toHaveLength(1);
  });

  it('a low balance is said and confirm stays disabled; nothing is sent', async () => {
    const app = await start({ credits: 2 });
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —') && f.includes('‹ Premium'));
    await app.press('form.decrease'); // wraps to 12 months
    await app.press('form.submit');
    await app.waitFrame((f) => f.includes('Balance too low'));
    await app.confirm('action.confirm');
    expect(books(app.sb).balance).toBe(2);
    await app.press('action.cancel');
    await app.waitFrame((f) => f.includes('New line —') && f.includes('‹ Premium')); // back to the form, everything kept
    expect(app.store.getState().form?.values.packageId).toBe(4);
  });
});

describe('unknown outcomes', () => {
  it('applied, reply lost: said so, checked, reported applied; exactly one charge, nothing re-sent', async () => {
    const app = await start();
    await app.press('lines.filterType');
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('estimate from package prices'));
    app.sb.faults.set('resetAfter=1');
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Applied: the server shows the change'));
    expect(books(app.sb).ledger).toHaveLength(1);
    expect(app.journal.entries.map((e) => e.outcome)).toEqual(['unknown', 'applied']);
  });

  it('reset before applying: "no change seen yet" and held; "not applied" only once the hold window has passed', async () => {
    let skew = 0;
    const app = await start({}, { now: () => Date.now() + skew, watch: true, watchFirstMs: 50 });
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —') && f.includes('‹ Premium'));
    await app.press('form.submit');
    await app.waitFrame((f) => f.includes('quoted by the server'));
    app.sb.faults.set('resetBefore=1');
    await app.confirm('action.confirm');
    // A check that sees no change proves only "not yet": the service may still apply it.
    await app.waitFrame((f) => f.includes('no change seen yet'));
    expect(app.frame()).not.toContain('Not applied');
    expect(app.journal.entries.map((e) => e.outcome)).toEqual(['unknown']); // one entry until it changes
    // The background checks go on; ten minutes later, still no change: now it is "not applied".
    skew = 11 * 60_000;
    await app.waitFrame((f) => f.includes('Not applied'));
    expect(app.frame()).toMatch(/no change 1[01] minutes after sending/);
    expect(books(app.sb).ledger).toHaveLength(0);
    expect(app.sb.repo.linesCount(1)).toBe(60);
    expect(app.journal.entries.at(-1)?.outcome).toBe('not applied');
  });

  it('applied with a 2xx body that cannot be read: unknown, then found by the username that was sent', async () => {
    const app = await start();
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —') && f.includes('‹ Premium'));
    await app.press('form.submit');
    await app.waitFrame((f) => f.includes('quoted by the server'));
    // The mutation alone gets a malformed body; the check that follows is answered normally.
    const draw = app.sb.faults.draw.bind(app.sb.faults);
    app.sb.faults.draw = (isMutation) =>
      isMutation ? { latencyMs: 0, before: 'none', after: 'malformed' } : draw(isMutation);
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Applied'));
    expect(books(app.sb).ledger).toHaveLength(1);
  });
});

describe('errors and read-only mode', () => {
  it('read-only: every change is disabled with its reason and no mutating request is sent', async () => {
    const app = await start({}, { readOnly: true });
    await app.waitFrame((f) => f.includes('[READ-ONLY]'));
    const mutations: string[] = [];
    for (const op of ['create', 'extend', 'upgrade', 'delete', 'unsuspend'] as const) {
      const orig = app.sb.service[op === 'create' ? 'create' : op].bind(app.sb.service) as (
        ...a: unknown[]
      ) => unknown;
      (app.sb.service as unknown as Record<string, unknown>)[op] = (...a: unknown[]) => {
        mutations.push(op);
        return orig(...a);
      };
    }
    for (const id of ['line.create', 'line.trial', 'line.extend', 'line.upgrade', 'line.delete'] as const) {
      await app.press(id);
      await app.waitFrame((f) => f.includes('Read-only mode'));
      expect(selectDialog(app.store.getState())).toBeNull();
    }
    expect(mutations).toEqual([]);
  });

  it('every field rule of the creation body gives its message at the field and sends nothing', async () => {
    const app = await start();
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —') && f.includes('‹ Premium'));
    const cases: Array<[string, number, string, RegExp]> = [
      ['username', 2, 'short', /Username needs at least 12/],
      ['password', 3, 'has space here!', /Password/],
      ['label', 4, 'x'.repeat(31), /Label allows at most 30/],
      ['macaddress', 5, '00:11', /six hex pairs/],
      ['parental_code', 6, '12a4', /exactly 4 digits/],
    ];
    for (const [field, steps, text, message] of cases) {
      app.store.setState({ form: { ...app.store.getState().form!, focus: 'package' } });
      for (let i = 0; i < steps; i++) await app.press('form.next');
      await app.type(text);
      await app.waitFrame((f) => message.test(f));
      await app.press('form.submit');
      expect(app.store.getState().form!.focus).toBe(field);
      expect(app.store.getState().action).toBeNull();
      app.store.getState().setFormText('', field as 'label');
    }
    expect(books(app.sb).ledger).toHaveLength(0);
  });

  it('a username already taken goes back to the username field', async () => {
    const app = await start();
    const taken = loaded(app.store.getState().lines)!.lines[0]!.username;
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —') && f.includes('‹ Premium'));
    await app.press('form.next');
    await app.press('form.next');
    await app.type(taken);
    await app.press('form.submit');
    await app.waitFrame((f) => f.includes('already exists'));
    await app.press('action.cancel');
    await app.waitFrame((f) => f.includes('✗ Username already exists'));
  });
});
