import { afterEach, describe, expect, it } from 'vitest';
import { findAcrossApi } from '../../src/app/find-across';
import type { FindAnswer } from '../../src/services/find-lines';
import { faultProxy } from '../helpers/fault-proxy';
import { DOWN_KEY, findEnv, hungServer, WRONG_KEY } from '../helpers/find-env';
import { DEMO_KEY } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** The find as the app builds it, on alpha (the profile in use), over the test's config. */
async function setup(extra: Parameters<typeof findEnv>[0] = {}, deadlineMs?: number) {
  const env = await findEnv(extra);
  const api = findAcrossApi({
    userAgent: 'linedesk-test',
    current: {
      profile: 'alpha',
      label: 'alpha · here',
      baseUrl: env.alpha.sb.baseUrl,
      client: env.alpha.client,
    },
    configPath: env.configPath,
    ...(deadlineMs ? { deadlineMs } : {}),
  });
  const search = async (text: string) => {
    const answers: FindAnswer[] = [];
    const ids = api.sources().sources.map((s) => s.id);
    await api.search(text, ids, new AbortController().signal, (a) => answers.push(a));
    const by = (id: string) => answers.find((a) => a.source === id)?.result;
    return { answers, by };
  };
  return { ...env, api, search };
}

const ids = (r: FindAnswer['result'] | undefined) => (r?.ok ? r.found.lines.map((l) => l.id) : null);
const usernames = (r: FindAnswer['result'] | undefined) =>
  r?.ok ? r.found.lines.map((l) => l.username) : null;

describe('find across accounts (the app layer: a client per profile)', () => {
  it('lists every profile, the one in use first; the keys stay out of what the store gets', async () => {
    const { api } = await setup();
    const { sources, problem } = api.sources();
    expect(problem).toBeNull();
    expect(sources.map((s) => [s.id, s.isCurrent, s.profile])).toEqual([
      ['alpha', true, null],
      ['beta', false, 'beta'],
      ['down', false, 'down'],
      ['wrongkey', false, 'wrongkey'],
    ]);
    expect(JSON.stringify(sources)).not.toMatch(new RegExp(`${DEMO_KEY}|${DOWN_KEY}|${WRONG_KEY}`));
  });

  it('two sandboxes answer with their matches; the unreachable and the bad-key profiles fail with reasons', async () => {
    const { search } = await setup();
    const { answers, by } = await search('ticket-user');
    expect(answers).toHaveLength(4);
    expect(usernames(by('alpha'))).toEqual(['ticket-user-alpha1']);
    expect(usernames(by('beta'))).toEqual(['ticket-user-beta01']);
    const down = by('down');
    const wrong = by('wrongkey');
    expect(down?.ok).toBe(false);
    expect(wrong?.ok).toBe(false);
    if (down?.ok === false)
      expect(down.reason).toMatch(/^unreachable: Could not connect to 127\.0\.0\.1:\d+/);
    if (wrong?.ok === false) expect(wrong.reason).toMatch(/^bad key: The API key was refused/);
    expect(JSON.stringify(answers)).not.toMatch(new RegExp(`${DOWN_KEY}|${WRONG_KEY}|${DEMO_KEY}`));
  });

  it('an exact username comes before the partial ones', async () => {
    const { search, beta } = await setup();
    const longer = beta.sb.repo.db
      .prepare('SELECT id FROM lines WHERE account_id = 1 ORDER BY id LIMIT 1 OFFSET 10')
      .get() as { id: string };
    // A line listed before it whose username holds it: the server's order puts it first.
    beta.sb.repo.db
      .prepare('UPDATE lines SET username = ? WHERE id = ?')
      .run('ticket-user-beta01x', longer.id);
    const { by } = await search('ticket-user-beta01');
    expect(usernames(by('beta'))).toEqual(['ticket-user-beta01', 'ticket-user-beta01x']);
  });

  it('finds a line by id, on a server whose search does not match ids too (a bounded walk)', async () => {
    const env = await findEnv();
    const proxy = await faultProxy(env.beta.sb.baseUrl, { dialect: { searchIgnoresIds: true } });
    cleanups.push(() => proxy.close());
    const { search, inBeta } = await setup({ gamma: { baseUrl: proxy.baseUrl, apiKey: DEMO_KEY } });
    const { by } = await search(inBeta.id);
    expect(ids(by('beta'))).toEqual([inBeta.id]);
    expect(usernames(by('alpha'))).toEqual([]);
    // gamma is beta's service behind a proxy whose search ignores ids: found by the walk.
    expect(usernames(by('gamma'))).toEqual(['ticket-user-beta01']);
  });

  it('a profile that hangs fails "timed out" after its deadline; the others answered before it', async () => {
    const { search } = await setup({ slow: { baseUrl: await hungServer(), apiKey: DEMO_KEY } }, 1_500);
    const { answers, by } = await search('ticket-user');
    expect(answers.at(-1)?.source).toBe('slow');
    const slow = by('slow');
    expect(slow?.ok).toBe(false);
    if (slow?.ok === false) expect(slow.reason).toMatch(/^timed out/);
    expect(usernames(by('beta'))).toEqual(['ticket-user-beta01']);
  });

  it('an aborted find reports nothing more', async () => {
    const { api } = await setup();
    const ctl = new AbortController();
    const answers: FindAnswer[] = [];
    const run = api.search('ticket-user', ['alpha', 'beta', 'down', 'wrongkey'], ctl.signal, (a) => {
      answers.push(a);
      ctl.abort();
    });
    await run;
    expect(answers).toHaveLength(1);
  });
});
