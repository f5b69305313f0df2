import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LineListItem } from '../../src/api/contract';
import { NetworkError, NotAuthorized, TimeoutError, UnexpectedStatus } from '../../src/api/errors';
import { FIND_COLUMNS, groupHeading } from '../../src/present/find-columns';
import { layoutColumns } from '../../src/present/lines-columns';
import {
  cursorIndex,
  type FindGroup,
  type FindSource,
  findFailure,
  findInService,
  findRowsOf,
  looksLikeId,
  orderSources,
  rankMatches,
} from '../../src/services/find-lines';
import type { FindAcrossApi } from '../../src/store/deps';
import { selectFoundLine } from '../../src/store/find-slice';
import { viewIds } from '../../src/store/view-stack';
import { storeOnSandbox } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { findEnv } from '../helpers/find-env';
import { lineItem } from '../helpers/fixtures';
import { sandbox } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const line = (id: string, username: string): LineListItem =>
  lineItem({ id, username, password: 'secret-password-1' });
const source = (id: string, isCurrent = false): FindSource => ({
  id,
  name: id,
  host: `${id}.example`,
  profile: isCurrent ? null : id,
  isCurrent,
});
const ready = (s: FindSource, lines: LineListItem[], total = lines.length): FindGroup => ({
  source: s,
  load: { status: 'ready', data: { lines, total, note: null } },
});

describe('find, the pure part', () => {
  it('ranks exact username or id matches first, then usernames holding the text, then the rest; each once', () => {
    const lines = [
      line('1', 'bigsmith-000101'),
      line('2', 'other-000102'), // matched by the server for a reason of its own
      line('3', 'SMITH-00000001'),
      line('4', 'smithers-00001'),
      line('3', 'SMITH-00000001'),
      line('smith-00000001', 'whoever-000103'),
    ];
    expect(rankMatches(lines, ' smith-00000001 ').map((l) => l.id)).toEqual([
      '3',
      'smith-00000001',
      '1',
      '2',
      '4',
    ]);
    expect(rankMatches(lines, 'smith').map((l) => l.id)).toEqual(['1', '3', '4', '2', 'smith-00000001']);
    expect(rankMatches(lines, 'smith', 2)).toHaveLength(2);
  });

  it('orders the sources: the service in use first, then the profiles by name', () => {
    const list = [source('zeta'), source('alpha'), source('mid', true)];
    expect(orderSources(list).map((s) => s.id)).toEqual(['mid', 'alpha', 'zeta']);
  });

  it('groups rows in the sources order, whatever order they answered in; the cursor is a line, not a place', () => {
    const a = source('a', true);
    const b = source('b');
    const c = source('c');
    const groups: FindGroup[] = [
      ready(a, [line('a1', 'user-a1-000000')]),
      { source: b, load: { status: 'error', error: 'bad key: refused' } },
      ready(c, [line('c1', 'user-c1-000000'), line('c2', 'user-c2-000000')]),
    ];
    const rows = findRowsOf(groups);
    expect(rows.map((r) => `${r.source.id}/${r.line.id}`)).toEqual(['a/a1', 'c/c1', 'c/c2']);
    expect(cursorIndex(rows, { source: 'c', line: 'c2' })).toBe(2);
    expect(cursorIndex(rows, { source: 'b', line: 'c2' })).toBe(0);
    expect(cursorIndex(rows, null)).toBe(0);
    // A group searched again keeps its rows until it answers.
    const again: FindGroup = { source: a, load: { status: 'loading', data: loadedOf(groups[0]!) } };
    expect(findRowsOf([again]).map((r) => r.line.id)).toEqual(['a1']);
  });

  it('headings say the profile, its host, and the count, "failed: reason" or "searching…"', () => {
    expect(groupHeading(ready(source('a', true), [line('1', 'u-000000000001')]))).toBe(
      'a · a.example (in use): 1 match',
    );
    expect(groupHeading(ready(source('b'), []))).toBe('b · b.example: no match');
    expect(groupHeading(ready(source('b'), [line('1', 'u-000000000001')], 57))).toBe(
      'b · b.example: 1 of 57 matches shown (a longer text narrows it)',
    );
    expect(groupHeading({ source: source('c'), load: { status: 'loading' } })).toBe(
      'c · c.example: searching…',
    );
    expect(groupHeading({ source: source('d'), load: { status: 'error', error: 'unreachable: x' } })).toBe(
      'd · d.example: failed: unreachable: x',
    );
  });

  it('says why a source failed in words first', () => {
    expect(findFailure(new NotAuthorized(401, 'nope'))).toMatch(/^bad key: The API key was refused/);
    expect(findFailure(new UnexpectedStatus(403, 'Unexpected answer: HTTP 403'))).toMatch(
      /^bad key \(refused, 403\)/,
    );
    expect(
      findFailure(new NetworkError('Could not connect to h (ECONNREFUSED)', 'not_sent', 'ECONNREFUSED')),
    ).toBe('unreachable: Could not connect to h (ECONNREFUSED).');
    expect(findFailure(new TimeoutError('No answer from h within 10000 ms', 'unknown'))).toMatch(
      /^timed out: /,
    );
    expect(findFailure(new Error('aborted'), 15_000)).toBe('timed out: no complete answer within 15 s');
  });

  it('only a UUID is looked for by id in a walk', () => {
    expect(looksLikeId('C7CAB253-2546-403e-81ca-a4ceb5b93baa')).toBe(true);
    expect(looksLikeId('ticket-user-beta01')).toBe(false);
    expect(looksLikeId('c7cab253')).toBe(false);
  });

  it('lays the table out at 80, 100 and 120 columns: the id whole or not at all, the width filled', () => {
    // At 80 a cut id would match nothing and would cut usernames to 12 ("gracesmith01…" twice).
    const narrow = layoutColumns(FIND_COLUMNS, 80 - 3, 1);
    expect(narrow.map((l) => l.column.id)).toEqual(['username', 'status', 'expiry']);
    expect(narrow[0]!.width).toBeGreaterThanOrEqual(30);
    for (const width of [100, 120]) {
      const laid = layoutColumns(FIND_COLUMNS, width - 3, 1);
      expect(laid.map((l) => l.column.id)).toEqual(['username', 'id', 'status', 'expiry']);
      expect(laid.find((l) => l.column.id === 'id')?.width).toBe(36);
      expect(laid.reduce((n, l) => n + l.width, 0) + laid.length - 1).toBe(width - 3);
    }
  });
});

const loadedOf = (g: FindGroup) => (g.load.status === 'ready' ? g.load.data : undefined);

describe('find, one service', () => {
  it('an id its search does not match: found by a walk, or the group says how far it looked', async () => {
    const env = await sandbox({ lines: 300 });
    const { client } = await proxiedClient(env.sb.baseUrl, { dialect: { searchIgnoresIds: true } });
    const far = env.sb.repo.db
      .prepare('SELECT id, username FROM lines WHERE account_id = 1 ORDER BY id DESC LIMIT 1')
      .get() as { id: string; username: string };
    const signal = new AbortController().signal;
    const found = await findInService(client, far.id.toUpperCase(), signal);
    expect(found.lines.map((l) => l.username)).toEqual([far.username]);
    expect(found.note).toBeNull();
    // Two pages only (overlapping by a line: 199 lines): the line (last by id) is not in them, and
    // the group says so.
    const cut = await findInService(client, far.id, signal, 2);
    expect(cut.lines).toEqual([]);
    expect(cut.note).toBe('the id was looked for in the first 199 of 300 lines only');
  });
});

describe('find, the store', () => {
  it('an answer landing above the cursor does not move it', async () => {
    const env = await findEnv();
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const alpha = source('alpha', true);
    const beta = source('beta');
    // The app's find, with the order of answers in the test's hands: beta first, alpha later.
    const findAcross: FindAcrossApi = {
      sources: () => ({ sources: [alpha, beta], problem: null }),
      async search(text, _ids, signal, onAnswer) {
        onAnswer({
          source: 'beta',
          result: { ok: true, found: await findInService(env.beta.client, text, signal) },
        });
        await gate;
        onAnswer({
          source: 'alpha',
          result: { ok: true, found: await findInService(env.alpha.client, text, signal) },
        });
      },
    };
    const { store } = await storeOnSandbox({}, { findAcross }, env.alpha);
    const done = store.getState().findAcross('ticket-user');
    await vi.waitFor(() =>
      expect(selectFoundLine(store.getState())?.line.username).toBe('ticket-user-beta01'),
    );
    release();
    await done;
    const s = store.getState();
    expect(findRowsOf(s.findGroups).map((r) => r.line.username)).toEqual([
      'ticket-user-alpha1',
      'ticket-user-beta01',
    ]);
    expect(selectFoundLine(s)?.line.username).toBe('ticket-user-beta01');
    expect(viewIds(s)).toEqual(['lines', 'find']);
  });

  it('a source that never answers is not left "searching…"', async () => {
    const findAcross: FindAcrossApi = {
      sources: () => ({ sources: [source('x', true)], problem: null }),
      search: async () => {
        throw new Error('a bug of ours');
      },
    };
    const logged: string[] = [];
    const { store } = await storeOnSandbox({}, { findAcross, logError: (c) => logged.push(c) });
    await store.getState().findAcross('smith');
    expect(store.getState().findGroups[0]?.load).toEqual({ status: 'error', error: 'no answer' });
    expect(logged).toEqual(['find']);
  });
});
