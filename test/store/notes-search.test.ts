/**
 * Notes are found as people type (issue 24): accents folded ("muller" finds "José Müller"), phone
 * numbers by their digits with the national "(0)" optional ("447700900123" finds
 * "+44 (0)7700-900 123"), in the browser's `/` search on the sandbox over HTTP.
 */
import { describe, expect, it, vi } from 'vitest';
import { matchNotes, memoryNotes, type NoteInput } from '../../src/services/notes';
import { storeOnSandbox } from '../helpers/app';
import { sandbox } from '../helpers/sandbox';

const stamp = '2026-01-01T00:00:00.000Z';
const noted = (entries: Record<string, NoteInput>) =>
  memoryNotes(Object.fromEntries(Object.entries(entries).map(([id, n]) => [id, { ...n, updatedAt: stamp }])));

describe('notes search', () => {
  it('folds accents and case both ways, and matches phone numbers by digits, "(0)" or not', () => {
    const notes = noted({
      a: { name: 'José Müller', phone: '', text: '' },
      b: { name: '', phone: '+44 (0)7700-900 123', text: '' },
      c: { name: 'Zoë', phone: '', text: 'straße 4, Łódź' },
    });
    expect(matchNotes(notes, 'muller')).toEqual(['a']);
    expect(matchNotes(notes, 'JOSE MÜLLER')).toEqual(['a']);
    expect(matchNotes(notes, 'müll')).toEqual(['a']);
    expect(matchNotes(notes, '447700900123')).toEqual(['b']);
    expect(matchNotes(notes, '+44 7700 900123')).toEqual(['b']);
    expect(matchNotes(notes, '4407700900123')).toEqual(['b']);
    expect(matchNotes(notes, '900 123')).toEqual(['b']);
    expect(matchNotes(notes, 'zoe')).toEqual(['c']);
    expect(matchNotes(notes, 'lodz')).toEqual(['c']);
    expect(matchNotes(notes, 'strasse')).toEqual(['c']);
    // Digits alone are not a phone inside a word: "4" in a text still matches as text.
    expect(matchNotes(notes, 'x9')).toEqual([]);
  });

  it("the browser's / finds a line by an accented name typed plain, and by a phone's digits", async () => {
    const env = await sandbox({ lines: 60 });
    const [x, y] = (await env.client.listLines({ limit: 100, offset: 30 })).lines;
    const notes = noted({
      [x!.id]: { name: 'José Müller', phone: '', text: '' },
      [y!.id]: { name: '', phone: '+44 (0)7700-900 123', text: '' },
    });
    const { store } = await storeOnSandbox({}, { notes }, env);
    await store.getState().start();
    store.getState().setQuery({ search: 'muller' });
    await vi.waitFor(() => expect(store.getState().localMatches?.status).toBe('ready'));
    expect(store.getState().localMatches!.lines.map((l) => l.id)).toEqual([x!.id]);
    store.getState().setQuery({ search: '447700900123' });
    await vi.waitFor(() => expect(store.getState().localMatches?.search).toBe('447700900123'));
    await vi.waitFor(() => expect(store.getState().localMatches?.status).toBe('ready'));
    expect(store.getState().localMatches!.lines.map((l) => l.id)).toEqual([y!.id]);
  });
});
