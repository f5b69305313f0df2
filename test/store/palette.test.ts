import { describe, expect, it } from 'vitest';
import {
  completePalette,
  paletteCandidates,
  parsePalette,
  runPalette,
  splitWords,
} from '../../src/commands/palette';
import { counted, credits } from '../../src/domain/format';
import { selectScreen } from '../../src/store/view-stack';
import { NO_FX, storeOnSandbox } from '../helpers/app';

describe('the palette takes the names the screens use', () => {
  it(':sort expiry is the API’s exp_date; the API names still work; others are refused with the choices', () => {
    expect(parsePalette('sort expiry desc')).toMatchObject({
      ok: true,
      name: 'sort',
      args: ['exp_date', 'desc'],
    });
    expect(parsePalette('sort expires ascending')).toMatchObject({
      ok: true,
      name: 'sort',
      args: ['exp_date', 'asc'],
    });
    expect(parsePalette('sort exp_date')).toMatchObject({ ok: true, name: 'sort', args: ['exp_date'] });
    const bad = parsePalette('sort colour');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain('expiry');
    expect(paletteCandidates('sort ex')).toEqual(['exp_date', 'expiry', 'expires']);
  });
});

describe('a prefix shared by several commands is settled by its arguments', () => {
  it(':f expired filters, :f smith finds, :f alone is ambiguous; an exact name always wins', () => {
    expect(parsePalette('f expired')).toMatchObject({ ok: true, name: 'filter', args: ['expired'] });
    expect(parsePalette('fi active')).toMatchObject({ ok: true, name: 'filter', args: ['active'] });
    expect(parsePalette('f smith')).toMatchObject({ ok: true, name: 'find', args: ['smith'] });
    expect(parsePalette('s expiry desc')).toMatchObject({
      ok: true,
      name: 'sort',
      args: ['exp_date', 'desc'],
    });
    expect(parsePalette('s smith')).toMatchObject({ ok: true, name: 'search', args: ['smith'] });
    expect(parsePalette('f')).toEqual({ ok: false, error: 'Ambiguous: filter, find' });
    expect(parsePalette('find expired')).toMatchObject({ ok: true, name: 'find', args: ['expired'] });
    expect(parsePalette('fil smith')).toMatchObject({
      ok: false,
      error: expect.stringContaining('filter: "smith"'),
    });
  });
});

describe('amounts and counts read as English', () => {
  it('one credit, many credits, thousands separated', () => {
    expect(credits(1)).toBe('1 credit');
    expect(credits(0)).toBe('0 credits');
    expect(credits(1000)).toBe('1,000 credits');
    expect(credits(2.5)).toBe('2.50 credits');
    expect(counted(1, 'line')).toBe('1 line');
    expect(counted(5000, 'line')).toBe('5,000 lines');
  });
});

describe('the palette reads arguments as a shell does, typed per command (issue 24)', () => {
  it(':renewals 14 30 is two day counts; a third, or a word, is refused with the form', () => {
    // The two windows are the command line's --within and --expired, given in order.
    expect(parsePalette('renewals 14 30')).toMatchObject({
      ok: true,
      name: 'renewals',
      values: { within: '14', expired: '30' },
    });
    expect(parsePalette('renewals 14')).toMatchObject({
      ok: true,
      name: 'renewals',
      values: { within: '14' },
    });
    expect(parsePalette('renewals 0')).toMatchObject({
      ok: false,
      error: expect.stringContaining('1 to 365'),
    });
    expect(parsePalette('renewals 14 30 7')).toMatchObject({
      ok: false,
      error: expect.stringContaining('renewals [DAYS] [DAYS]'),
    });
  });

  it('quotes keep blanks inside one argument; free text after the command is one argument', () => {
    expect(splitWords(`search "john smith" 'a b' c\\ d`).words).toEqual([
      'search',
      'john smith',
      'a b',
      'c d',
    ]);
    expect(parsePalette('search "john  smith"')).toMatchObject({
      ok: true,
      name: 'search',
      args: ['john  smith'],
    });
    expect(parsePalette('find john smith')).toMatchObject({ ok: true, name: 'find', args: ['john smith'] });
  });

  it(':journal is a command', () => {
    expect(parsePalette('journal')).toMatchObject({ ok: true, name: 'journal', args: [] });
    expect(paletteCandidates('jo')).toEqual(['journal']);
  });

  it(':profile completes its verbs, then the profile names (and sandbox for use)', () => {
    const values = { profiles: ['shopA', 'shopB', 'other'], templates: [] };
    expect(paletteCandidates('profile r', values)).toEqual(['rename', 'remove']);
    expect(paletteCandidates('profile use ', values)).toEqual(['shopA', 'shopB', 'other', 'sandbox']);
    expect(paletteCandidates('profile use sh', values)).toEqual(['shopA', 'shopB']);
    expect(completePalette('profile use sh', values)).toBe('profile use shop');
    expect(completePalette('profile use shopb', values)).toBe('profile use shopB ');
    expect(completePalette('profile remove o', values)).toBe('profile remove other ');
    expect(paletteCandidates('profile add ', values)).toEqual([]);
    expect(parsePalette('profile rename shopA shopC')).toMatchObject({
      ok: true,
      name: 'profile',
      args: ['rename', 'shopA', 'shopC'],
    });
    expect(parsePalette('profile use a b')).toMatchObject({ ok: false });
  });
});

describe('the palette runs what it parsed (on the sandbox)', () => {
  it(':renewals 14 30 sets both windows; :journal opens the journal', async () => {
    const { store } = await storeOnSandbox();
    const s = () => store.getState();
    s().openPalette();
    s().setPaletteInput('renewals 14 30');
    runPalette(s(), NO_FX);
    expect(s().flash?.tone).not.toBe('error');
    expect(s().renewalsWindow).toMatchObject({ withinDays: 14, expiredDays: 30 });
    expect(selectScreen(s()).id).toBe('renewals');
    s().openPalette();
    s().setPaletteInput('journal');
    runPalette(s(), NO_FX);
    expect(selectScreen(s()).id).toBe('journal');
  });
});
