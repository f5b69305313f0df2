import { describe, expect, it } from 'vitest';
import { counted, credits } from '../../src/domain/format';
import { paletteCandidates, parsePalette } from '../../src/store/palette';

describe('the palette takes the names the screens use', () => {
  it(':sort expiry is the API’s exp_date; the API names still work; others are refused with the choices', () => {
    expect(parsePalette('sort expiry desc')).toEqual({ ok: true, name: 'sort', args: ['exp_date', 'desc'] });
    expect(parsePalette('sort expires ascending')).toEqual({
      ok: true,
      name: 'sort',
      args: ['exp_date', 'asc'],
    });
    expect(parsePalette('sort exp_date')).toEqual({ ok: true, name: 'sort', args: ['exp_date'] });
    const bad = parsePalette('sort colour');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain('expiry');
    expect(paletteCandidates('sort ex')).toEqual(['exp_date', 'expiry', 'expires']);
  });
});

describe('a prefix shared by several commands is settled by its arguments', () => {
  it(':f expired filters, :f smith finds, :f alone is ambiguous; an exact name always wins', () => {
    expect(parsePalette('f expired')).toEqual({ ok: true, name: 'filter', args: ['expired'] });
    expect(parsePalette('fi active')).toEqual({ ok: true, name: 'filter', args: ['active'] });
    expect(parsePalette('f smith')).toEqual({ ok: true, name: 'find', args: ['smith'] });
    expect(parsePalette('s expiry desc')).toEqual({ ok: true, name: 'sort', args: ['exp_date', 'desc'] });
    expect(parsePalette('s smith')).toEqual({ ok: true, name: 'search', args: ['smith'] });
    expect(parsePalette('f')).toEqual({ ok: false, error: 'Ambiguous: filter, find' });
    expect(parsePalette('find expired')).toEqual({ ok: true, name: 'find', args: ['expired'] });
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
