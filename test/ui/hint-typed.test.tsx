/**
 * A key named in a sentence is one that runs its command there and then (commands/hints.ts
 * `keyHint`, by the rule dispatch and the footer follow: commands/text-takes.ts). The palette is
 * drawn under the screen, whose sentences stay in view: while it has the caret, a letter typed goes
 * into it, so the screen's sentences name no letter.
 */
import { describe, expect, it } from 'vitest';
import { hint } from '../../src/commands/keymap';
import { resolveKey } from '../../src/keys/dispatch';
import { renderApp } from '../helpers/app';

describe('a key named in a sentence works there', () => {
  it('renewals: "a marks every renewable line" is not said while the palette types the a', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('nav.renewals');
    const said = hint('renewals.markAll', 'marks every renewable line');
    await app.waitFrame((f) => f.includes(said));
    await app.press('app.palette');
    await app.waitFrame(() => app.store.getState().views.at(-1)?.id === 'palette');
    // The frame with the palette open: its letter is typed, not run, and not offered.
    await app.waitFrame((f) => f.includes('Renewals —') && f.includes(':'));
    expect(resolveKey(app.store.getState(), 'a')).toBeUndefined();
    expect(app.frame()).not.toContain(said);
  });
});
