/**
 * A shown name, and a cell fit, never cut a flag of two regional indicators into a lone indicator
 * (England's tag flag is held in wide-cells.test.ts).
 */
import { expect, it } from 'vitest';
import { sanitize } from '../../src/api/sanitize';
import { fitWidth, shownName } from '../../src/domain/format';

const FR = '\u{1F1EB}\u{1F1F7}';
it('shownName cuts before a regional-indicator flag, never between its two halves', () => {
  const shown = shownName(sanitize(`${'a'.repeat(59)}${FR}zz`));
  expect(shown).toBe(`${'a'.repeat(59)}…`);
});
it('fitWidth never keeps half a regional-indicator flag', () => {
  const shown = fitWidth(sanitize(`abc${FR}def`), 5);
  expect(shown.includes('\u{1F1EB}') && !shown.includes('\u{1F1F7}')).toBe(false);
});
