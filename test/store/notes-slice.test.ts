import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryNotes, type NoteInput } from '../../src/services/notes';
import { selectLocalFound } from '../../src/store/notes-slice';
import { storeOnSandbox } from '../helpers/app';
import { proxiedClient } from '../helpers/fault-proxy';
import { sandbox } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const stamp = '2026-01-01T00:00:00.000Z';
const noted = (entries: Record<string, NoteInput>) =>
  memoryNotes(Object.fromEntries(Object.entries(entries).map(([id, n]) => [id, { ...n, updatedAt: stamp }])));

const rowsOf = (env: Awaited<ReturnType<typeof sandbox>>, where: string, offset = 150) =>
  env.sb.repo.db
    .prepare(
      `SELECT id, username FROM lines WHERE account_id = 1 AND ${where} ORDER BY id LIMIT 3 OFFSET ${offset}`,
    )
    .all() as { id: string; username: string }[];

describe('lines found by their note for the applied search', () => {
  it('found far down the list on a server whose search ignores ids (the paste lookup walks the pages)', async () => {
    const env = await sandbox({ lines: 300 });
    const { client } = await proxiedClient(env.sb.baseUrl, { dialect: { searchIgnoresIds: true } });
    const [x, y] = rowsOf(env, '1');
    const notes = noted({
      [x!.id]: { name: 'Quentin Blake', phone: '', text: '' },
      [y!.id]: { name: '', phone: '+44 (20) 7946-0958', text: 'Blake’s brother' },
      'gone-line-id': { name: 'blake senior', phone: '', text: '' },
    });
    const { store } = await storeOnSandbox({}, { client, notes }, env);
    await store.getState().start();
    store.getState().setQuery({ search: 'blake' });
    await vi.waitFor(() => expect(store.getState().localMatches?.load.status).toBe('ready'));
    const m = { ...store.getState().localMatches!, ...selectLocalFound(store.getState())! };
    expect(new Set(m.lines.map((l) => l.id))).toEqual(new Set([x!.id, y!.id]));
    expect(m.gone).toBe(1);
    // A phone number is found by its digits however it was written.
    store.getState().setQuery({ search: '2079460958' });
    await vi.waitFor(() => expect(store.getState().localMatches?.search).toBe('2079460958'));
    await vi.waitFor(() => expect(store.getState().localMatches?.load.status).toBe('ready'));
    expect(selectLocalFound(store.getState())!.lines.map((l) => l.id)).toEqual([y!.id]);
    // Cleared with the search.
    store.getState().clearSearch();
    await vi.waitFor(() => expect(store.getState().localMatches).toBeNull());
  });

  it('a note kept with its username is found by a search, without a walk; a walk for the rest stays short', async () => {
    const env = await sandbox({ lines: 2500 });
    const { proxy, client } = await proxiedClient(env.sb.baseUrl, { dialect: { searchIgnoresIds: true } });
    const [far] = rowsOf(env, '1', 2400);
    const notes = memoryNotes();
    notes.set(far!.id, { name: 'Quentin Blake', phone: '', text: '' }, far!.username);
    const { store } = await storeOnSandbox({}, { client, notes }, env);
    await store.getState().start();
    const before = proxy.forwarded.get('GET /v1/lines/all') ?? 0;
    store.getState().setQuery({ search: 'quentin' });
    await vi.waitFor(() => expect(store.getState().localMatches?.load.status).toBe('ready'));
    expect(selectLocalFound(store.getState())!.lines.map((l) => l.id)).toEqual([far!.id]);
    // The search's page (and its prefetch), and one search for the username: no walk of 25 pages.
    expect((proxy.forwarded.get('GET /v1/lines/all') ?? 0) - before).toBeLessThanOrEqual(4);

    // A note whose line is gone (and has no username) costs at most the short walk, each search.
    notes.set('gone-line-id', { name: 'Quentin senior', phone: '', text: '' });
    const at = proxy.forwarded.get('GET /v1/lines/all') ?? 0;
    store.getState().setQuery({ search: 'senior' });
    await vi.waitFor(() => expect(store.getState().localMatches?.search).toBe('senior'));
    await vi.waitFor(() => expect(store.getState().localMatches?.load.status).toBe('ready'));
    // The short walk did not read the whole list: the line is not looked up, not proven gone.
    expect(selectLocalFound(store.getState())).toMatchObject({ gone: 0, notLookedUp: 1 });
    expect((proxy.forwarded.get('GET /v1/lines/all') ?? 0) - at).toBeLessThanOrEqual(24);
  });

  it('the status and type filters apply to them as the server applies them to its results', async () => {
    const env = await storeOnSandbox({ lines: 300 });
    const [suspended] = rowsOf(env, 'enabled = 0', 0);
    const [trial] = rowsOf(env, 'is_trial = 1 AND enabled = 1', 0);
    const notes = noted({
      [suspended!.id]: { name: 'Marta', phone: '', text: '' },
      [trial!.id]: { name: 'Marta too', phone: '', text: '' },
    });
    const { store } = await storeOnSandbox({}, { notes }, env);
    await store.getState().start();
    const ids = async (patch: Record<string, string>) => {
      store.getState().setQuery({ search: '', status: 'all', type: 'all' });
      store.getState().setQuery({ search: 'marta', ...patch });
      await vi.waitFor(() => expect(store.getState().localMatches?.load.status).toBe('ready'));
      return new Set(selectLocalFound(store.getState())!.lines.map((l) => l.id));
    };
    expect(await ids({})).toEqual(new Set([suspended!.id, trial!.id]));
    expect(await ids({ status: 'suspended' })).toEqual(new Set([suspended!.id]));
    expect(await ids({ type: 'trial' })).toEqual(new Set([trial!.id]));
  });

  it('a note saved while a search is applied is found at once', async () => {
    const notes = memoryNotes();
    const env = await storeOnSandbox({}, { notes });
    const { store } = env;
    await store.getState().start();
    const line = (await env.client.listLines({ offset: 40, limit: 1 })).lines[0]!;
    store.getState().setQuery({ search: 'walrus' });
    await vi.waitFor(() => expect(store.getState().lines.status).toBe('ready'));
    expect(store.getState().localMatches).toBeNull();
    store.getState().openNoteForm(line);
    store.getState().moveNoteFocus(-1); // wraps to the last field: the free text
    store.getState().setNoteField('owns a walrus');
    store.getState().saveNoteForm();
    expect(notes.get(line.id)?.text).toBe('owns a walrus');
    await vi.waitFor(() =>
      expect(selectLocalFound(store.getState())?.lines.map((l) => l.id)).toEqual([line.id]),
    );
  });
});

describe('a search that matches many notes', () => {
  it('looks up the most recent 24 only and says more matched', async () => {
    const env = await storeOnSandbox({ lines: 60 });
    const lines = (await env.client.listLines({ limit: 40 })).lines;
    const notes = memoryNotes(
      Object.fromEntries(
        lines.map((l, i) => [
          l.id,
          {
            name: 'regular',
            phone: '',
            text: '',
            updatedAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
          },
        ]),
      ),
    );
    const { store } = await storeOnSandbox({}, { notes }, env);
    await store.getState().start();
    store.getState().setQuery({ search: 'regular' });
    await vi.waitFor(() => expect(store.getState().localMatches?.load.status).toBe('ready'));
    const m = { ...store.getState().localMatches!, ...selectLocalFound(store.getState())! };
    expect(m.more).toBe(true);
    // Most recently updated first: the last 24 lines noted.
    expect(m.lines.map((l) => l.id)).toEqual(
      lines
        .slice(16)
        .reverse()
        .map((l) => l.id),
    );
  });
});

describe('a change to a line found by its note', () => {
  it('shows in the local group at once (unsuspended), and a deleted line leaves it', async () => {
    const env = await storeOnSandbox({ lines: 300 });
    const [sus, other] = rowsOf(env, 'enabled = 0', 0);
    const notes = noted({
      [sus!.id]: { name: 'Ursula', phone: '', text: '' },
      [other!.id]: { name: 'Ursula too', phone: '', text: '' },
    });
    const { store } = await storeOnSandbox({}, { notes }, env);
    await store.getState().start();
    await store.getState().loadCatalog();
    store.getState().setQuery({ search: 'ursula' });
    await vi.waitFor(() => expect(store.getState().localMatches?.load.status).toBe('ready'));
    const line = selectLocalFound(store.getState())!.lines.find((l) => l.id === sus!.id)!;
    expect(line.enabled).toBe(false);
    store.getState().openAction({ op: 'unsuspend', line });
    await store.getState().confirmAction();
    expect(store.getState().action?.phase).toBe('done');
    expect(selectLocalFound(store.getState())!.lines.find((l) => l.id === sus!.id)?.enabled).toBe(true);
    store.getState().closeAction();
    store.getState().removeLine(other!.id);
    expect(selectLocalFound(store.getState())!.lines.map((l) => l.id)).toEqual([sus!.id]);
  });
});

describe('the lookup of lines found by note is one load', () => {
  it('fails as a load says (the refresh key retries), and the refresh tries it again', async () => {
    const env = await sandbox({ lines: 60 });
    const { proxy, client } = await proxiedClient(env.sb.baseUrl);
    const [x] = rowsOf(env, '1', 40);
    const notes = noted({ [x!.id]: { name: 'Quentin Blake', phone: '', text: '' } });
    const { store } = await storeOnSandbox({}, { client, notes }, env);
    await store.getState().start();
    proxy.set({ rules: [{ match: 'GET /v1/lines/all', fault: { kind: 'error5xx' } }] });
    store.getState().setQuery({ search: 'blake' });
    await vi.waitFor(() => expect(store.getState().localMatches?.load.status).toBe('error'));
    proxy.set({});
    await store.getState().refreshScreen();
    await vi.waitFor(() => expect(store.getState().localMatches?.load.status).toBe('ready'));
    expect(selectLocalFound(store.getState())!.lines.map((l) => l.id)).toEqual([x!.id]);
  });
});
