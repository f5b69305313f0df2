import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clampCaret, EDIT_KEYS, editText, insertText, type TextState } from '../../src/keys/text-edit';

const at = (value: string, caret = value.length): TextState => ({ value, caret });

describe('text fields edit as a shell does', () => {
  it('readline keys', () => {
    expect(editText(at('hello world'), 'ctrl+w')).toEqual(at('hello '));
    expect(editText(at('hello world  '), 'ctrl+w')).toEqual(at('hello '));
    expect(editText(at('hello world', 5), 'ctrl+u')).toEqual(at(' world', 0));
    expect(editText(at('hello world', 5), 'ctrl+k')).toEqual(at('hello'));
    expect(editText(at('hello', 2), 'ctrl+a').caret).toBe(0);
    expect(editText(at('hello', 2), 'ctrl+e').caret).toBe(5);
    expect(editText(at('hello world'), 'meta+b').caret).toBe(6);
    expect(editText(at('hello world', 0), 'meta+f').caret).toBe(5);
    expect(editText(at('abc', 1), 'delete')).toEqual(at('ac', 1));
    expect(editText(at('abc', 1), 'backspace')).toEqual(at('bc', 0));
    expect(insertText(at('ac', 1), 'b')).toEqual(at('abc', 2));
  });

  it('Backspace, Delete and the arrows take whole graphemes (emoji, flags, accents)', () => {
    const family = '👨‍👩‍👧';
    expect(editText(at(`a${family}`), 'backspace')).toEqual(at('a'));
    expect(editText(at(`a🇫🇷b`, 1), 'delete')).toEqual(at('ab', 1));
    expect(editText(at('e\u0301x', 0), 'right').caret).toBe(2);
    expect(editText(at(`${family}`), 'left').caret).toBe(0);
  });

  it('any key on any text leaves valid UTF-16 and a caret on a boundary (property)', () => {
    const text = fc.array(fc.constantFrom('a', ' ', 'é', 'e\u0301', '😀', '👨‍👩‍👧', '🇫🇷', '中'), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        text,
        fc.nat(40),
        fc.array(fc.constantFrom(...EDIT_KEYS), { maxLength: 20 }),
        (parts, c, keys) => {
          let s: TextState = { value: parts.join(''), caret: clampCaret(parts.join(''), c) };
          for (const k of keys) s = editText(s, k);
          expect(s.value.isWellFormed()).toBe(true);
          expect(s.caret).toBeGreaterThanOrEqual(0);
          expect(s.caret).toBeLessThanOrEqual(s.value.length);
          const bounds = [...new Intl.Segmenter().segment(s.value)]
            .map((g) => g.index)
            .concat(s.value.length);
          expect(bounds).toContain(s.caret);
        },
      ),
    );
  });
});
