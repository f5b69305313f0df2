/**
 * Grapheme boundaries of a text, and a caret snapped to one: the store keeps a caret beside each
 * text field's value (store/text-target.ts), the keys edit it (keys/text-edit.ts). Pure.
 */

let segmenter: Intl.Segmenter | undefined;
/** Grapheme boundaries of `text`, 0 and text.length included. ASCII needs no segmenter. */
export function boundaries(text: string): number[] {
  if (/^[\u0000-\u007f]*$/.test(text)) return Array.from({ length: text.length + 1 }, (_, i) => i);
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const out = [...segmenter.segment(text)].map((s) => s.index);
  out.push(text.length);
  return out;
}

/** Snaps a caret from outside (a stored one, a value changed under it) to a boundary within the text. */
export function clampCaret(value: string, caret: number): number {
  if (caret >= value.length) return value.length;
  if (caret <= 0) return 0;
  return boundaries(value).findLast((b) => b <= caret) ?? 0;
}
