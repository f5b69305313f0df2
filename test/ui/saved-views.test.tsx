/**
 * Saved views, the column picker and the search history, on the screens against the sandbox: a view
 * saved, switched to with its key and by name; columns shown in the order chosen; ↑ in the search
 * field recalls a search.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runPalette } from '../../src/commands/palette';
import { applyUserKeys, resetUserKeys } from '../../src/commands/user-keys';
import { loaded } from '../../src/domain/load';
import type { SavedView, ViewsApi } from '../../src/present/saved-views';
import { DEFAULT_QUERY } from '../../src/services/lines-query';
import { selectDialog } from '../../src/store/view-stack';
import { NO_FX, renderApp, storeOnSandbox } from '../helpers/app';

function memoryViews(
  views: SavedView[] = [],
  searches: string[] = [],
): ViewsApi & { views: SavedView[]; searchList: () => readonly string[] } {
  let kept: readonly string[] = searches;
  const api = {
    views,
    problems: [],
    list: () => api.views,
    save(view: SavedView) {
      api.views = [...api.views.filter((v) => v.name !== view.name), view];
      return null;
    },
    remove(name: string) {
      api.views = api.views.filter((v) => v.name !== name);
      return null;
    },
    searches: () => kept,
    saveSearches(list: readonly string[]) {
      kept = list;
      return null;
    },
    searchList: () => kept,
  };
  return api;
}

const ready = (f: string) => /\d+–\d+ of \d+/.test(f);
const headerOf = (f: string) => f.split('\n').find((l) => l.includes('USERNAME')) ?? '';

describe('saved views in the store', () => {
  it('saves the filter, search, sort and columns; switches by name and with the key; an unknown name lists the known', async () => {
    const views = memoryViews();
    const { store } = await storeOnSandbox({ lines: 40 }, { views });
    const s = () => store.getState();
    await s().start();
    s().setQuery({ status: 'suspended', orderBy: 'username', orderType: 'desc' });
    s().toggleColumn('label');
    s().saveView('held');
    expect(views.views).toEqual([
      {
        name: 'held',
        query: { ...DEFAULT_QUERY, status: 'suspended', orderBy: 'username', orderType: 'desc' },
        columns: ['username', 'status', 'type', 'connections', 'expiry', 'created'],
      },
    ]);
    expect(s().viewName).toBe('held');

    s().applyView('default');
    expect(s().query).toEqual(DEFAULT_QUERY);
    expect(s().columns).toBeNull();
    expect(s().viewName).toBeNull();

    s().nextView();
    expect(s().viewName).toBe('held');
    expect(s().query.status).toBe('suspended');
    await expect.poll(() => s().lines.status).toBe('ready');
    const page = loaded(s().lines)!;
    expect(page.lines.length).toBeGreaterThan(0);
    expect(page.lines.every((l) => !l.enabled)).toBe(true);

    s().applyView('nope');
    expect(s().flash?.text).toBe('No view "nope"; known: default, held');
    expect(s().viewName).toBe('held');

    s().saveView('save');
    expect(s().flash?.text).toMatch(/is a word of :view/);
    expect(views.views).toHaveLength(1);

    // `:lines --view NAME` as `linedesk lines --view NAME`: the options given override the view's.
    s().applyView('default');
    s().setPaletteInput('lines --view held --type trial');
    runPalette(s(), NO_FX);
    expect(s().query).toEqual({
      ...DEFAULT_QUERY,
      status: 'suspended',
      type: 'trial',
      orderBy: 'username',
      orderType: 'desc',
    });
    expect(s().columns).toEqual(views.views[0]?.columns);
  });
});

describe('the column picker and views on screen', () => {
  afterEach(() => resetUserKeys());

  it('columns are shown in the order chosen; Esc returns to the browser as it was; a saved view comes back with v', async () => {
    const views = memoryViews();
    const app = await renderApp({ lines: 40 }, { views });
    await app.waitFrame(ready);
    await app.press('lines.down');
    await app.press('lines.down');
    await app.press('lines.columns');
    await app.waitFrame((f) => f.includes('Columns of the lines browser'));
    // EXPIRES (the sixth column) to the front, then LABEL hidden.
    for (let i = 0; i < 5; i++) await app.press('columns.down');
    await app.waitFrame((f) => /› ● {2}6 EXPIRES/.test(f));
    for (let i = 0; i < 5; i++) await app.press('columns.moveUp');
    await app.waitFrame((f) => /› ● {2}1 EXPIRES/.test(f));
    await app.press('columns.down');
    await app.press('columns.down');
    await app.press('columns.toggle');
    await app.waitFrame((f) => /LABEL +hidden/.test(f));
    await app.press('columns.close');
    await app.waitFrame((f) => ready(f) && !f.includes('Columns of the lines browser'));
    const header = headerOf(app.frame());
    expect(header.indexOf('EXPIRES')).toBeGreaterThanOrEqual(0);
    expect(header.indexOf('EXPIRES')).toBeLessThan(header.indexOf('USERNAME'));
    expect(header).not.toContain('LABEL');
    expect(app.store.getState().cursor).toBe(2);

    // Saved under a name from the palette, then the default view and back with the key.
    await app.press('app.palette');
    await app.type('view save late');
    await app.press('palette.run');
    await app.waitFrame((f) => f.includes('View late saved') && f.includes('view late'));
    expect(views.views[0]?.columns).toEqual([
      'expiry',
      'username',
      'status',
      'type',
      'connections',
      'created',
    ]);
    await app.press('lines.nextView');
    await app.waitFrame((f) => f.includes('View default') && headerOf(f).includes('LABEL'));
    expect(headerOf(app.frame()).indexOf('USERNAME')).toBeLessThan(headerOf(app.frame()).indexOf('EXPIRES'));
    await app.press('lines.nextView');
    await app.waitFrame((f) => f.includes('view late') && !headerOf(f).includes('LABEL'));
    // Moved off the view: the status line says so; back on it, it does not.
    await app.press('lines.filterType');
    await app.waitFrame((f) => f.includes('view late (changed)') && f.includes('type premium'));
    await app.press('lines.filterType');
    await app.press('lines.filterType');
    await app.waitFrame((f) => f.includes('type all') && f.includes('view late') && !f.includes('(changed)'));

    // The picker saves into the current view.
    await app.press('lines.columns');
    await app.waitFrame((f) => f.includes('Columns of the lines browser (view late)'));
    await app.press('columns.reset');
    await app.press('columns.save');
    await app.waitFrame((f) => f.includes('View late saved'));
    expect(views.views[0]?.columns).toBeNull();
    await app.press('columns.close');
    await app.waitFrame((f) => !f.includes('Columns of the lines browser'));
    expect(selectDialog(app.store.getState())).toBeNull();
  });

  it('a refused key names the keys as they are now (remapped in the config): moving a hidden column, the next view with none saved', async () => {
    applyUserKeys({ keys: { 'columns.toggle': 'x', 'lines.saveView': 'S' } });
    const app = await renderApp({ lines: 40 }, { views: memoryViews() });
    await app.waitFrame(ready);
    await app.press('lines.nextView');
    await app.waitFrame((f) => f.includes('No saved views yet: S saves this one'));
    await app.press('lines.columns');
    await app.waitFrame((f) => f.includes('Columns of the lines browser: x shows or hides'));
    for (let i = 0; i < 8; i++) await app.press('columns.down');
    await app.waitFrame((f) => /› ○ +NOTE +hidden/.test(f));
    // The footer offers no move on a hidden column, and the key says why.
    expect(app.frame()).not.toContain('move the column');
    await app.press('columns.moveUp');
    await app.waitFrame((f) => f.includes('Show the column first (x), then move it'));
    expect(app.frame()).not.toContain('(Space)');
    // No view chosen: the browser's save key is not named under the picker, where it does nothing.
    await app.press('columns.save');
    await app.waitFrame((f) => f.includes('No view chosen'));
    expect(app.frame()).not.toMatch(/No view chosen: S\b/);
    // A key the picker does not take: no help key is offered, since help does not open here.
    app.ui.stdin.write('q');
    await app.waitFrame((f) => f.includes('No command on "q" here'));
    expect(app.frame()).not.toContain('shows the keys');
    await app.press('columns.close');
    await app.waitFrame((f) => !f.includes('Columns of the lines browser'));
    app.ui.stdin.write('z');
    await app.waitFrame((f) => f.includes('No command on "z" here; ? shows the keys'));
  });

  it(':view NAME applies a view given by hand and completes its name', async () => {
    const views = memoryViews([
      { name: 'trials', query: { ...DEFAULT_QUERY, type: 'trial' }, columns: ['type', 'username'] },
    ]);
    const app = await renderApp({ lines: 40 }, { views });
    await app.waitFrame(ready);
    await app.press('app.palette');
    await app.type('view tr');
    await app.press('palette.complete');
    await app.waitFrame((f) => f.includes(':view trials'));
    expect(app.store.getState().paletteInput).toBe('view trials ');
    await app.press('palette.run');
    await app.waitFrame((f) => f.includes('type trial') && f.includes('view trials'));
    // Its words complete as values, not described as the commands they spell (`delete` a line).
    await app.press('app.palette');
    await app.type('view ');
    await app.waitFrame((f) => /trials {3}default {3}save {3}delete/.test(f));
    expect(app.frame()).not.toContain('delete the line');
    const header = headerOf(app.frame());
    expect(header.trim().startsWith('TYPE')).toBe(true);
    expect(header).not.toContain('STATUS');
  });
});

describe('the search field’s history', () => {
  it('a search applied with Enter comes back with ↑, kept for the account; an older one with ↑ again', async () => {
    const views = memoryViews([], ['older-search']);
    const app = await renderApp({ lines: 40 }, { views });
    await app.waitFrame(ready);
    const user = loaded(app.store.getState().lines)!.lines[3]!.username;
    await app.press('lines.search');
    await app.type(user.slice(0, 8));
    await app.press('search.apply');
    await app.waitFrame((f) => f.includes(`search "${user.slice(0, 8)}"`));
    expect(views.searchList()).toEqual(['older-search', user.slice(0, 8)]);

    await app.press('lines.search');
    await app.waitFrame((f) => f.includes('search:') && f.includes('username or line id'));
    await app.press('search.historyPrev');
    await app.waitFrame((f) => f.includes(`search: ${user.slice(0, 8)}`));
    await app.press('search.historyPrev');
    await app.waitFrame((f) => f.includes('search: older-search'));
    await app.press('search.historyNext');
    await app.waitFrame((f) => f.includes(`search: ${user.slice(0, 8)}`));
  });
});
