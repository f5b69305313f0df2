/**
 * Saved views and the search history in the config: read entry by entry (a bad view is named and
 * left out, never fatal), saved without losing what the file holds (other views, a bad one, fields
 * this version does not know), readable and editable by hand.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig, saveConfig } from '../../src/app/config';
import { viewsApi } from '../../src/app/views-config';
import { historyStep, remember } from '../../src/domain/history';
import { COLUMN_IDS, parseSearches, parseViews, viewColumns, viewJson } from '../../src/present/saved-views';
import { DEFAULT_QUERY } from '../../src/services/lines-query';

const file = (json: unknown) => {
  const path = join(mkdtempSync(join(tmpdir(), 'ld-views-')), 'config.json');
  writeFileSync(path, JSON.stringify(json), { mode: 0o600 });
  return path;
};

describe('the config’s views, entry by entry', () => {
  it('keeps the good views in order and names each bad one, whatever is wrong with it', () => {
    const { views, problems } = parseViews({
      'expiring-trials': {
        status: 'expiring',
        type: 'trial',
        sort: 'expiry:desc',
        columns: ['username', 'expiry'],
      },
      plain: {},
      badStatus: { status: 'gone' },
      badSort: { sort: 'price' },
      badColumns: { columns: ['username', 'colour'] },
      emptyColumns: { columns: [] },
      'no spaces': { status: 'all' },
      save: {},
      notAnObject: 7,
    });
    expect(views.map((v) => v.name)).toEqual(['expiring-trials', 'plain']);
    expect(views[0]).toEqual({
      name: 'expiring-trials',
      query: { status: 'expiring', type: 'trial', search: '', orderBy: 'exp_date', orderType: 'desc' },
      columns: ['username', 'expiry'],
    });
    expect(views[1]).toEqual({ name: 'plain', query: DEFAULT_QUERY, columns: null });
    expect(problems).toHaveLength(7);
    expect(problems[0]).toMatch(/^View "badStatus": status: expected one of all, active.*left out$/);
    expect(problems[1]).toMatch(/^View "badSort": sort: /);
    expect(problems[2]).toMatch(/^View "badColumns": columns: "colour" is not one of username/);
    expect(problems.join('\n')).toMatch(/"no spaces": a view name takes/);
    expect(problems.join('\n')).toMatch(/"save": "save" is a word of :view/);
    expect(problems.join('\n')).toMatch(/"notAnObject": expected an object/);
  });

  it('a name or value edited by hand with a control character is said without it; a search recalled without it', () => {
    const { problems } = parseViews({
      'x\u001b]0;owned\u0007y': { status: 'active' },
      ok: { status: 'gone\u001b[31m' },
      cols: { columns: ['username', '\u009b2J'] },
    });
    expect(problems).toHaveLength(3);
    for (const p of problems) expect(p).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(parseSearches({ a: ['ross\u001b[2J', 'smith'] }, 'a').searches).toEqual(['ross[2J', 'smith']);
  });

  it('a views entry that is not an object is named; nothing else is lost', () => {
    expect(parseViews(['a'])).toEqual({
      views: [],
      problems: [expect.stringMatching(/^Views: expected an object/)],
    });
    expect(parseViews(undefined)).toEqual({ views: [], problems: [] });
  });

  it('a view as written is read back as it was saved', () => {
    const view = {
      name: 'x',
      query: {
        status: 'suspended',
        type: 'premium',
        search: 'smith',
        orderBy: 'username',
        orderType: 'desc',
      },
      columns: ['status', 'username', 'note'],
    } as const;
    expect(viewJson(view)).toEqual({
      status: 'suspended',
      type: 'premium',
      search: 'smith',
      sort: 'username:desc',
      columns: ['status', 'username', 'note'],
    });
    expect(parseViews({ x: viewJson(view) }).views[0]).toEqual(view);
  });

  it('a column set gives the browser’s columns in its order; null is the default set', () => {
    expect(viewColumns(['expiry', 'username'], null).map((c) => c.id)).toEqual(['expiry', 'username']);
    expect(viewColumns(['note', 'username'], new Map()).map((c) => c.id)).toEqual(['note', 'username']);
    expect(viewColumns(null, null).map((c) => c.id)).toEqual(COLUMN_IDS.filter((c) => c !== 'note'));
  });
});

describe('saved in the config file', () => {
  it('a bad view is said at read, and kept in the file as it was when another view is saved', () => {
    const path = file({
      version: 1,
      defaultProfile: null,
      profiles: {},
      views: { broken: { status: 'gone' }, kept: { status: 'active', future: 'a field of a newer version' } },
    });
    // The config itself reads whole: views are checked by their own module.
    expect(readConfig(path).problems).toEqual([]);
    const api = viewsApi('acct', path);
    expect(api.problems).toEqual([expect.stringMatching(/View "broken": status/)]);
    expect(api.list().map((v) => v.name)).toEqual(['kept']);
    expect(
      api.save({ name: 'kept', query: { ...DEFAULT_QUERY, status: 'expired' }, columns: ['username'] }),
    ).toBeNull();
    expect(api.save({ name: 'new-one', query: DEFAULT_QUERY, columns: null })).toBeNull();
    const json = JSON.parse(readFileSync(path, 'utf8'));
    expect(json.views).toEqual({
      broken: { status: 'gone' },
      kept: {
        status: 'expired',
        future: 'a field of a newer version',
        sort: 'id:asc',
        columns: ['username'],
      },
      'new-one': { sort: 'id:asc' },
    });
    expect(api.remove('new-one')).toBeNull();
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).views)).toEqual(['broken', 'kept']);
    // Another save of the config (a setting) keeps the views.
    saveConfig({ ...readConfig(path).config!, welcomed: true }, path);
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).views)).toEqual(['broken', 'kept']);
  });

  it('searches are kept per account, newest last, at most 20; another account’s are left alone', () => {
    const path = file({ version: 1, defaultProfile: null, profiles: {}, searches: { other: ['theirs'] } });
    const api = viewsApi('mine', path);
    let list: string[] = [];
    for (let i = 0; i < 25; i++) list = remember(list, `s${i}`, 20);
    list = remember(list, 's10', 20);
    expect(api.saveSearches(list)).toBeNull();
    const json = JSON.parse(readFileSync(path, 'utf8'));
    expect(json.searches.other).toEqual(['theirs']);
    expect(json.searches.mine).toHaveLength(20);
    expect(json.searches.mine.at(-1)).toBe('s10');
    expect(json.searches.mine.filter((s: string) => s === 's10')).toHaveLength(1);
    expect(viewsApi('mine', path).searches()).toEqual(json.searches.mine);
    expect(parseSearches({ mine: 'nope' }, 'mine')).toEqual({
      searches: [],
      problem: expect.stringMatching(/^Searches:/),
    });
  });
});

describe('one history mechanism (the palette’s and the search field’s)', () => {
  it('↑ walks to older entries and stops at the oldest; ↓ past the newest is an empty line', () => {
    const h = ['a', 'b', 'c'];
    expect(historyStep(h, null, -1)).toEqual({ index: 2, text: 'c' });
    expect(historyStep(h, 0, -1)).toEqual({ index: 0, text: 'a' });
    expect(historyStep(h, 2, 1)).toEqual({ index: null, text: '' });
    expect(historyStep([], null, -1)).toBeNull();
    expect(remember(['a', 'b'], ' a ', 20)).toEqual(['b', 'a']);
    expect(remember(['a'], '  ', 20)).toEqual(['a']);
  });
});
