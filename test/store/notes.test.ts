import { describe, expect, it } from 'vitest';
import { isTerminalSafe } from '../../src/api/sanitize';
import { createNotes, type LineNote, matchNotes, memoryNotes, noteSummary } from '../../src/services/notes';

const note = (over: Partial<LineNote> = {}): LineNote => ({
  name: '',
  phone: '',
  text: '',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...over,
});

/** A clock that moves one minute per call, so every set has its own time. */
const ticking = () => {
  let t = Date.parse('2025-03-01T10:00:00Z');
  return () => {
    t += 60_000;
    return new Date(t);
  };
};

describe('memory notes', () => {
  it('sets, gets, stamps the time, and removes on null or all-blank', () => {
    const notes = memoryNotes({}, () => new Date('2025-03-01T10:00:00Z'));
    expect(notes.problem).toBeNull();
    notes.set('7', { name: ' Ana ', phone: '555 0100', text: 'pays cash' });
    expect(notes.get('7')).toEqual({
      name: 'Ana',
      phone: '555 0100',
      text: 'pays cash',
      updatedAt: '2025-03-01T10:00:00.000Z',
    });
    notes.set('8', { name: 'Bo', phone: '', text: '' });
    notes.set('7', { name: '  ', phone: '\t', text: '\u001b[2J' });
    expect(notes.get('7')).toBeUndefined();
    notes.set('8', null);
    expect(notes.all().size).toBe(0);
  });

  it('an unchanged note keeps its time (saving a form again does not reorder)', () => {
    const notes = memoryNotes({}, ticking());
    notes.set('1', { name: 'Ana', phone: '', text: '' });
    const first = notes.get('1')!.updatedAt;
    notes.set('1', { name: ' Ana', phone: '', text: '' });
    expect(notes.get('1')!.updatedAt).toBe(first);
    notes.set('1', { name: 'Ana B', phone: '', text: '' });
    expect(notes.get('1')!.updatedAt > first).toBe(true);
    // Removing what is not there is not a change either: nothing is saved.
    let saves = 0;
    const counted = createNotes([], { save: () => saves++ });
    counted.set('9', null);
    counted.set('9', { name: ' ', phone: '', text: '' });
    expect(saves).toBe(0);
  });

  it('caps name 60, phone 30, text 500 characters, without cutting an emoji in half', () => {
    const notes = memoryNotes();
    notes.set('1', { name: 'n'.repeat(100), phone: '1'.repeat(40), text: '📺'.repeat(600) });
    const n = notes.get('1')!;
    expect(n.name).toHaveLength(60);
    expect(n.phone).toHaveLength(30);
    expect(Array.from(n.text)).toHaveLength(500);
    expect(n.text).toBe('📺'.repeat(500));
  });

  it('cleans initial notes too (a hand-edited file is pasted text as well)', () => {
    const notes = memoryNotes({ '1': note({ name: 'Ana\u001b]0;pwned\u0007' }), '2': note({ text: ' ' }) });
    expect(notes.get('1')!.name).toBe('Ana');
    expect(notes.get('2')).toBeUndefined();
  });
});

describe('hostile pasted values', () => {
  const cases: Record<string, [string, string]> = {
    'OSC 52 clipboard write': ['\u001b]52;c;aGk=\u0007evil', 'evil'],
    'OSC 52 ended by ST': ['a\u001b]52;c;aGk=\u001b\\b', 'ab'],
    'clear screen': ['\u001b[2J', ''],
    'cursor move in the middle': ['Ana\u001b[10;10HBo', 'AnaBo'],
    'unterminated OSC eats the rest, as a terminal would': ['Ana\u001b]0;title', 'Ana'],
    'one-character CSI': ['\u009b31mred', 'red'],
    'charset switch': ['x\u001b(By', 'xy'],
    'lone ESC, BEL, DEL, bidi override': ['a\u001b\u0007\u007f\u202eb', 'ab'],
    'line breaks and tabs become spaces (the text keeps its lines)': ['one\r\ntwo\tthree', 'one two three'],
  };
  for (const [what, [input, expected]] of Object.entries(cases)) {
    it(`strips ${what}`, () => {
      const notes = memoryNotes();
      notes.set('1', { name: input, phone: input, text: `note: ${input}` });
      const n = notes.get('1')!;
      // The free text keeps its lines (issue 24: a pasted multi-line note); a tab is still a space.
      const keptLines = what.startsWith('line breaks') ? 'one\ntwo three' : expected;
      expect(n.text).toBe(`note: ${keptLines}`.trim());
      expect(n.name).toBe(expected);
      expect(n.phone).toBe(expected);
      for (const v of [n.name, n.phone, ...n.text.split('\n')]) {
        expect(isTerminalSafe(v)).toBe(true);
        expect(v).not.toContain('\uFFFD');
      }
    });
  }
});

describe('matchNotes', () => {
  const notes = memoryNotes({
    old: note({ name: 'Ana Pérez', phone: '+44 (20) 7946-0958', updatedAt: '2025-01-01T00:00:00Z' }),
    mid: note({ name: 'Bo', text: 'Moved to Ana’s flat', updatedAt: '2025-02-01T00:00:00.500Z' }),
    new: note({ name: 'Cy', phone: '555.0100', updatedAt: '2025-03-01T00:00:00Z' }),
    tie: note({ name: 'ana again', updatedAt: '2025-03-01T00:00:00Z' }),
  });

  it('finds name and text, case-insensitively, most recently updated first (ties by id)', () => {
    expect(matchNotes(notes, 'ANA')).toEqual(['tie', 'mid', 'old']);
    expect(matchNotes(notes, 'flat')).toEqual(['mid']);
    expect(matchNotes(notes, 'pérez')).toEqual(['old']);
    const tied = memoryNotes({ b: note({ name: 'x' }), a: note({ name: 'x' }) });
    expect(matchNotes(tied, 'x')).toEqual(['a', 'b']);
  });

  it('finds a phone whatever its spaces, dashes, dots, parentheses or leading +', () => {
    for (const q of ['2079460958', '+44 20 7946 0958', '442079460958', '(20) 7946', '7946-0958', '0958']) {
      expect(matchNotes(notes, q), q).toEqual(['old']);
    }
    expect(matchNotes(notes, '5550100')).toEqual(['new']);
    expect(matchNotes(notes, '555-01')).toEqual(['new']);
    expect(matchNotes(notes, '7946 0959')).toEqual([]);
  });

  it('blank text matches nothing, nor does punctuation that no note holds as typed', () => {
    expect(matchNotes(notes, '')).toEqual([]);
    expect(matchNotes(notes, '   ')).toEqual([]);
    // Ignoring phone punctuation leaves nothing to look for: that must not match every note.
    expect(matchNotes(notes, '()')).toEqual([]);
  });
});

describe('noteSummary', () => {
  it('joins the parts that are not blank', () => {
    expect(noteSummary(note({ name: 'Ana', phone: '555', text: 'cash' }))).toBe('Ana · 555 · cash');
    expect(noteSummary(note({ name: 'Ana', text: 'cash' }))).toBe('Ana · cash');
    expect(noteSummary(note({ phone: '555' }))).toBe('555');
    expect(noteSummary(undefined)).toBe('');
  });

  it('is one safe line even for a note that never went through set', () => {
    const s = noteSummary(note({ name: 'Ana\u001b[2J', text: 'a\nb\u0007' }));
    expect(s).toBe('Ana · a b');
    expect(isTerminalSafe(s)).toBe(true);
  });
});
