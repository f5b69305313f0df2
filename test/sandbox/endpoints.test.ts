import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import {
  Conflict,
  InsufficientBalance,
  LineNotFound,
  NotAuthorized,
  RequestErrors,
} from '../../src/api/errors';
import { books, sandbox } from '../helpers/sandbox';

const DAY = 86_400_000;

describe('read endpoints', () => {
  it('GET /v1/me agrees with the database', async () => {
    const { client } = await sandbox();
    const me = await client.me();
    expect(me).toMatchObject({ email: 'demo@sandbox.linedesk', credits: 1000, lines_count: 60 });
    expect(me.server_information.mag_portal_url).toMatch(/^http/);
  });

  it('GET /v1/packages: 1/3/6/12 months and 12/24/48-hour trials, filtered by type', async () => {
    const { client } = await sandbox();
    const all = (await client.packages()).packages;
    expect(all.filter((p) => !p.is_trial).map((p) => p.duration)).toEqual([1, 3, 6, 12]);
    expect(all.filter((p) => p.is_trial).map((p) => p.duration)).toEqual([12, 24, 48]);
    expect((await client.packages({ type: 'trial' })).packages.every((p) => p.is_trial)).toBe(true);
    expect((await client.packages({ type: 'premium' })).packages.every((p) => !p.is_trial)).toBe(true);
  });

  it('GET /v1/bouquets: about 25 channel and 12 movie bouquets', async () => {
    const { client } = await sandbox();
    const b = await client.bouquets();
    expect(b.channels.length).toBeGreaterThanOrEqual(20);
    expect(b.movies.length).toBeGreaterThanOrEqual(10);
  });

  it('GET /v1/lines/all pages through every line exactly once, stably', async () => {
    const { client } = await sandbox();
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await client.listLines({ offset, limit: 7, orderBy: 'exp_date', orderType: 'desc' });
      expect(page.totalReturns).toBe(page.lines.length);
      expect(page.totalHits).toBe(60);
      expect(page.hasPreviousPage).toBe(offset > 0);
      expect(page.hasNextPage).toBe(page.nextOffset !== null);
      seen.push(...page.lines.map((l) => l.id));
      offset = page.nextOffset;
    }
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
    const page2 = await client.listLines({ offset: 7, limit: 7 });
    expect(page2.previousOffset).toBe(0);
  });

  it('orders by each column, ties broken by id', async () => {
    const { client } = await sandbox();
    for (const orderBy of ['id', 'username', 'enabled', 'exp_date'] as const) {
      const lines = (await client.listLines({ limit: 100, orderBy })).lines;
      const key = (l: (typeof lines)[number]) =>
        orderBy === 'exp_date'
          ? (l.exp_date?.ms ?? Infinity)
          : orderBy === 'enabled'
            ? Number(l.enabled)
            : l[orderBy];
      for (let i = 1; i < lines.length; i++) {
        const [a, b] = [key(lines[i - 1]!), key(lines[i]!)];
        expect(a <= b).toBe(true);
        if (a === b) expect(lines[i - 1]!.id < lines[i]!.id).toBe(true); // ascending: ties ascend too
      }
    }
  });

  it('filters by status and type with the documented rules', async () => {
    const { client } = await sandbox();
    const now = Date.now();
    const get = async (q: Parameters<typeof client.listLines>[0]) =>
      (await client.listLines({ limit: 100, ...q })).lines;
    for (const l of await get({ status: 'suspended' })) expect(l.enabled).toBe(false);
    for (const l of await get({ status: 'active' })) {
      expect(l.enabled).toBe(true);
      expect(l.exp_date!.ms!).toBeGreaterThan(now - 1000);
    }
    const expiring = await get({ status: 'expiring' });
    expect(expiring.length).toBeGreaterThan(0);
    for (const l of expiring) expect(l.exp_date!.ms! - now).toBeLessThanOrEqual(7 * DAY);
    for (const l of await get({ type: 'trial' })) expect(l.is_trial).toBe(true);
    for (const l of await get({ type: 'premium' })) expect(l.is_trial).toBe(false);
  });

  it('searches by partial username (any case) or by id', async () => {
    const { client } = await sandbox();
    const [first] = (await client.listLines({ limit: 1 })).lines;
    const part = first!.username.slice(2, 7).toUpperCase();
    const found = (await client.listLines({ search: part, limit: 100 })).lines;
    expect(found.map((l) => l.id)).toContain(first!.id);
    for (const l of found) expect(l.username.toLowerCase()).toContain(part.toLowerCase());
    expect((await client.listLines({ search: first!.id })).lines.map((l) => l.id)).toEqual([first!.id]);
    expect((await client.listLines({ search: '%' })).totalHits).toBe(0);
    expect((await client.listLines({ search: '"x' })).totalHits).toBe(0);
    // two characters take the LIKE path, three or more the trigram index: both substring, any case
    const two = first!.username.slice(3, 5).toUpperCase();
    for (const l of (await client.listLines({ search: two, limit: 100 })).lines)
      expect(l.username.toLowerCase()).toContain(two.toLowerCase());
  });

  it('search follows creates, renames and deletes (index kept in step)', async () => {
    const { client } = await sandbox();
    const created = await client.createLine({ duration: 1, username: 'Zebra-Search-Probe' });
    expect((await client.listLines({ search: 'search-pro' })).lines.map((l) => l.id)).toEqual([
      created.line!.id,
    ]);
    await client.deleteLine({ id: created.line!.id });
    expect((await client.listLines({ search: 'search-pro' })).totalHits).toBe(0);
  });
});

describe('mutations and their charges', () => {
  it('create charges what simulate quoted; deducedCredits and newBalance agree with /v1/me', async () => {
    const { sb, client } = await sandbox();
    const body = {
      duration: 6 as const,
      connections: 3,
      label: 'Hotel 12',
      bouquets: [1, 2],
      macaddress: '00:1A:79:00:00:01',
      parental_code: '0000',
    };
    const { cost } = await client.simulateCreate(body);
    const res = await client.createLine(body);
    expect(res.deducedCredits).toBe(cost);
    expect(res.newBalance).toBe(1000 - cost);
    expect((await client.me()).credits).toBe(res.newBalance);
    expect(res.line!).toMatchObject({
      connections: 3,
      label: 'Hotel 12',
      macaddress: '00:1A:79:00:00:01',
      parental_code: '0000',
      is_trial: false,
      enabled: true,
    });
    expect(res.line!.username.length).toBeGreaterThanOrEqual(12);
    expect(res.line!.password.length).toBeGreaterThanOrEqual(14);
    const b = books(sb);
    expect(b.ledger.at(-1)).toMatchObject({
      operation: 'create',
      amount: cost,
      balance_after: res.newBalance,
    });
    expect(b.opening - b.spent).toBe(b.balance);
  });

  it('trial lines: one connection, hours from the trial package', async () => {
    const { client } = await sandbox();
    const res = await client.createTrial({ duration: 24, enabled: false });
    expect(res.line!).toMatchObject({ is_trial: true, connections: 1, enabled: false });
    const hours = (res.line!.exp_date!.ms! - res.line!.start_date!.ms!) / 3_600_000;
    expect(hours).toBe(24);
  });

  it('extend: later expiry, start_date becomes now; an expired line counts from now', async () => {
    const { client } = await sandbox();
    const lines = (await client.listLines({ limit: 100, type: 'premium' })).lines;
    const running = lines.find((l) => l.exp_date!.ms! > Date.now() + 30 * DAY)!;
    const res = await client.extendLine({ id: running.id, duration: 1 });
    expect(res.line!.exp_date!.ms!).toBeGreaterThan(running.exp_date!.ms! + 27 * DAY);
    expect(Math.abs(res.line!.start_date!.ms! - Date.now())).toBeLessThan(5000);
    const expired = lines.find((l) => l.exp_date!.ms! < Date.now() - DAY)!;
    const res2 = await client.extendLine({ username: expired.username, duration: '1' });
    const days = (res2.line!.exp_date!.ms! - Date.now()) / DAY;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
  });

  it('upgrade charges the quote; removing connections is free', async () => {
    const { client } = await sandbox();
    const line = (await client.listLines({ limit: 100, type: 'premium', status: 'active' })).lines.find(
      (l) => l.connections < 5,
    )!;
    const body = { id: line.id, new_connections: line.connections + 1 };
    const { cost } = await client.simulateUpgrade(body);
    expect(cost).toBeGreaterThan(0);
    const res = await client.upgradeLine(body);
    expect(res.deducedCredits).toBe(cost);
    expect(res.line!.connections).toBe(line.connections + 1);
    const down = await client.upgradeLine({ id: line.id, new_connections: 1 });
    expect(down.deducedCredits).toBe(0);
    expect(down.newBalance).toBe(res.newBalance);
  });

  it('unsuspend returns the full line, enabled', async () => {
    const { client } = await sandbox();
    const line = (await client.listLines({ status: 'suspended' })).lines[0]!;
    const res = await client.unsuspendLine({ id: line.id });
    expect(res.enabled).toBe(true);
    expect(res).toHaveProperty('macaddress');
  });

  it('delete removes the line; a second delete is line_not_found', async () => {
    const { client } = await sandbox();
    const line = (await client.listLines({})).lines[0]!;
    expect(await client.deleteLine({ id: line.id })).toEqual({ success: true });
    await expect(client.deleteLine({ id: line.id })).rejects.toBeInstanceOf(LineNotFound);
    expect((await client.me()).lines_count).toBe(59);
  });
});

describe('error rows', () => {
  it('401 not_authorized for a wrong key', async () => {
    const { sb } = await sandbox();
    const c = createClient({ baseUrl: sb.baseUrl, apiKey: 'wrong-key-000000' });
    await expect(c.me()).rejects.toBeInstanceOf(NotAuthorized);
    await c.close();
  });

  it('insufficient_balance with balance and minBalance; nothing charged', async () => {
    const { sb, client } = await sandbox({ credits: 4 });
    const e = await client.createLine({ duration: 12 }).catch((x) => x);
    expect(e).toBeInstanceOf(InsufficientBalance);
    expect(e).toMatchObject({ balance: 4, minBalance: 9, status: 402 });
    expect(books(sb).balance).toBe(4);
    expect(books(sb).ledger).toHaveLength(0);
  });

  it('a username already taken is the message-only body, nothing charged', async () => {
    const { sb, client } = await sandbox();
    const taken = (await client.listLines({ limit: 1 })).lines[0]!.username;
    for (const call of [
      () => client.simulateCreate({ duration: 1, username: taken }),
      () => client.createLine({ duration: 1, username: taken }),
    ]) {
      const e = await call().catch((x) => x);
      expect(e).toBeInstanceOf(Conflict);
      expect(e.message).toMatch(/already exists/);
    }
    expect(books(sb).balance).toBe(1000);
  });

  it('an unavailable duration is the message-only body', async () => {
    const { sb, client } = await sandbox();
    sb.repo.db.prepare('DELETE FROM packages WHERE is_trial = 0 AND duration = 3').run();
    const line = (await client.listLines({ type: 'premium' })).lines[0]!;
    await expect(client.extendLine({ id: line.id, duration: 3 })).rejects.toBeInstanceOf(Conflict);
  });

  it('accounts are isolated: another account’s line is line_not_found', async () => {
    const { client, second } = await sandbox();
    const theirs = (await second.listLines({ limit: 1 })).lines[0]!;
    expect((await client.listLines({ search: theirs.id })).totalHits).toBe(0);
    for (const call of [
      () => client.extendLine({ id: theirs.id, duration: 1 }),
      () => client.upgradeLine({ id: theirs.id, new_connections: 2 }),
      () => client.simulateUpgrade({ username: theirs.username, new_connections: 2 }),
      () => client.unsuspendLine({ id: theirs.id }),
      () => client.deleteLine({ id: theirs.id }),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(LineNotFound);
    }
    expect((await second.me()).lines_count).toBe(25);
  });

  it('id and username that name different lines are not found', async () => {
    const { client } = await sandbox();
    const [a, b] = (await client.listLines({ limit: 2 })).lines;
    await expect(client.unsuspendLine({ id: a!.id, username: b!.username })).rejects.toBeInstanceOf(
      LineNotFound,
    );
  });

  it('trial lines cannot be upgraded or extended (request_errors at the field)', async () => {
    const { client } = await sandbox();
    const trial = (await client.listLines({ type: 'trial' })).lines[0]!;
    const e = await client.upgradeLine({ id: trial.id, new_connections: 2 }).catch((x) => x);
    expect(e).toBeInstanceOf(RequestErrors);
    expect(e.issues[0].path).toEqual(['new_connections']);
  });
});
