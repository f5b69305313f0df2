/**
 * A history of typed lines walked with ↑ and ↓ (the palette's commands, the browser's searches):
 * one mechanism, pure, so both fields behave alike. Newest last.
 */

/** `item` as the newest entry: an older copy of it goes, and at most `max` are kept (the newest). */
export function remember(list: readonly string[], item: string, max: number): string[] {
  const text = item.trim();
  if (!text) return [...list];
  return [...list.filter((h) => h !== text), text].slice(-max);
}

/**
 * One step through `list` from `index` (null: the line being typed, below the newest): ↑ (-1) goes
 * to older entries and stops at the oldest, ↓ (+1) to newer ones and past the newest back to an
 * empty line. Null when there is nothing to walk.
 */
export function historyStep(
  list: readonly string[],
  index: number | null,
  delta: -1 | 1,
): { readonly index: number | null; readonly text: string } | null {
  if (!list.length) return null;
  const at = index === null ? (delta < 0 ? list.length - 1 : null) : index + delta;
  if (at === null || at >= list.length) return { index: null, text: '' };
  const clamped = Math.max(0, at);
  return { index: clamped, text: list[clamped]! };
}
