/**
 * A bulk command spends its rate budget on its changes, not on finding the lines (issue 27): the
 * ids and usernames on stdin are resolved in about as many list requests as the list has pages (or a
 * search each, when fewer), counted at a proxy in front of the sandbox. The rule of a typed name is
 * the same (case-folded, clashes listed, missing named), an id the server's search does not match is
 * still found, a list that changes while it is walked is walked again, a read answered 429 is asked
 * again, and no extend is sent twice.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import type { LineListItem } from '../../src/api/contract';
import { walkPagesFor } from '../../src/services/paste-lookup';
import { faultProxy, type ProxyConfig } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs, type RunOptions } from '../helpers/headless';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';

const LIST = 'GET /v1/lines/all';
const EXTEND = 'PUT /v1/lines/extend';

async function allLines(client: ApiClient): Promise<LineListItem[]> {
  const out: LineListItem[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const page = await client.listLines({ offset, limit: 100 });
    out.push(...page.lines);
    offset = page.nextOffset;
  }
  return out;
}

/** A sandbox of `lines` behind a counting proxy; every line as listed, and a command runner. */
async function setup(lines: number, config: ProxyConfig = {}) {
  const env = await sandbox({ lines, credits: 1_000_000 });
  const proxy = await faultProxy(env.sb.baseUrl, config);
  const home = homeDirs();
  const run = (argv: string[], stdin: string, tune?: RunOptions['tune']) =>
    headless(argv, { env: envFor(proxy.baseUrl, DEMO_KEY, home), stdin, ...(tune ? { tune } : {}) });
  return { ...env, proxy, run, all: await allLines(env.client) };
}

/** Requests that reached the proxy (the sandbox, or the proxy's own answers: a 429, a search of ids). */
const count = (proxy: { received: ReadonlyMap<string, number> }, route: string) =>
  proxy.received.get(route) ?? 0;

describe('extend --stdin resolves its lines in few list requests', () => {
  it('250 ids and names: at most the pages of the list, each line extended once, clashes and misses named', async () => {
    const t = await setup(300);
    await t.client.createLine({ duration: 1, username: 'TwinBulk0001' });
    await t.client.createLine({ duration: 1, username: 'twinbulk0001' });
    const all = await allLines(t.client);
    const premium = all.filter((l) => !l.is_trial && l.username.toLowerCase() !== 'twinbulk0001');
    const chosen = premium.slice(0, 250);
    // Ids in capitals, usernames in capitals: the rule of a typed name, as a search finds it.
    const items = chosen.map((l, i) =>
      i % 3 === 0 ? l.id.toUpperCase() : i % 3 === 1 ? l.username.toUpperCase() : l.id,
    );
    const missing = '00000000-0000-4000-8000-000000000000';
    const stdin = `${items.join('\n')}\nTWINBULK0001\n${missing}\n`;
    const before = books(t.sb).balance;
    t.proxy.set({});
    const r = await t.run(['extend', '--stdin', '--months', '1', '--yes', '--json'], stdin);
    expect(r.code).toBe(6); // applied, and some left out (the clash and the miss)
    expect(r.stderr).toMatch(/stdin line 251: "TWINBULK0001" could be TwinBulk0001 or twinbulk0001/);
    expect(r.stderr).toMatch(new RegExp(`stdin line 252: no line answers to "${missing}"`));
    const pages = walkPagesFor(all.length);
    // The whole list once (the clash needs every page), again only if it changed: not a search per item.
    expect(count(t.proxy, LIST)).toBeLessThanOrEqual(pages);
    expect(count(t.proxy, EXTEND)).toBe(chosen.length);
    const out = JSON.parse(r.stdout);
    expect(out.lines.filter((l: { outcome: string }) => l.outcome === 'applied')).toHaveLength(chosen.length);
    expect(out.notFound).toEqual(['TWINBULK0001', missing]);
    const charged = out.lines.reduce((s: number, l: { charged: number | null }) => s + (l.charged ?? 0), 0);
    expect(before - books(t.sb).balance).toBe(charged);
  });

  it('a few ids the server does not search by: the searches stop at the first miss and one walk finds them', async () => {
    const t = await setup(1000, { dialect: { searchIgnoresIds: true } });
    // On the last page (the walk reads every page to find them), premium.
    const picked = t.all
      .slice(-90)
      .filter((l) => !l.is_trial)
      .slice(0, 8);
    t.proxy.set({ dialect: { searchIgnoresIds: true } });
    const r = await t.run(
      ['extend', '--stdin', '--months', '1', '--json'],
      picked.map((l) => l.id).join('\n'),
    );
    expect(r.code).toBe(4);
    expect(
      JSON.parse(r.stdout)
        .lines.map((l: { id: string }) => l.id)
        .sort(),
    ).toEqual(picked.map((l) => l.id).sort());
    // The account's count says 11 pages, more than 8 searches: the searches are tried; the first that
    // cannot settle its id stops them (at most the 4 in flight), and the walk reads every page once.
    expect(count(t.proxy, LIST)).toBeLessThanOrEqual(4 + walkPagesFor(1000));
  });

  it('a list that changes while it is walked is walked again: every line found once, extended once', async () => {
    let changed = false;
    const t = await setup(300);
    const env = t;
    const premium = t.all.filter((l) => !l.is_trial).slice(0, 200);
    t.proxy.set({
      onList: async (n, q) => {
        // A line created between the second and third page: the total moves, the walk starts again.
        if (n === 3 && !q.get('search') && !changed) {
          changed = true;
          await env.client.createLine({ duration: 1, username: 'lateArrival01' });
        }
      },
    });
    const r = await t.run(
      ['extend', '--stdin', '--months', '1', '--yes', '--json'],
      premium.map((l) => l.id).join('\n'),
    );
    expect(changed).toBe(true);
    expect(r.stderr).not.toMatch(/changed while reading/);
    expect(r.code).toBe(0);
    const done = JSON.parse(r.stdout).lines.map((l: { id: string }) => l.id);
    expect(done.sort()).toEqual(premium.map((l) => l.id).sort());
    expect(count(t.proxy, EXTEND)).toBe(premium.length);
  });

  it('a list read answered 429 is asked again after Retry-After; nothing is missed', async () => {
    const t = await setup(300);
    const premium = t.all.filter((l) => !l.is_trial).slice(0, 150);
    t.proxy.set({
      rules: [{ match: LIST, nth: 2, fault: { kind: 'rateLimit', headers: { 'retry-after': '0' } } }],
    });
    const r = await t.run(
      ['extend', '--stdin', '--months', '1', '--json'],
      premium.map((l) => l.id).join('\n'),
      {
        sleep: () => new Promise((res) => setTimeout(res, 5)),
        client: { retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 } },
      },
    );
    expect(r.stderr).toBe('Not sent: run it again with --yes to send it.\n');
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout).lines).toHaveLength(premium.length);
    // The 429 was answered by the proxy; the same page was asked again and reached the sandbox.
    expect(count(t.proxy, LIST)).toBe((t.proxy.forwarded.get(LIST) ?? 0) + 1);
    expect(t.proxy.forwarded.get(LIST)).toBeLessThanOrEqual(walkPagesFor(300));
  });
});
