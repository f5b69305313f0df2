/** The most names one paste may list (a support ticket's list, not a database dump). */
const PASTE_LIST_MAX = 5_000;

/**
 * A pasted list of usernames or line ids: one per line, or separated by spaces, commas or
 * semicolons; quotes around an item and control characters are dropped; each item once, in order.
 */
export function parsePasteList(text: string): { items: string[]; cut: number } {
  const seen = new Set<string>();
  for (const raw of text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ' ').split(/[\s,;]+/)) {
    const item = raw.replace(/^["'`]+|["'`]+$/g, '');
    if (item) seen.add(item);
  }
  const items = [...seen];
  return { items: items.slice(0, PASTE_LIST_MAX), cut: Math.max(0, items.length - PASTE_LIST_MAX) };
}

/** "alice, bob and 3 more": names in a sentence, at most `max` of them. */
export function namesText(names: readonly string[], max = 5): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}
