/**
 * A key named in a sentence is one that runs its command there and then (commands/hints.ts
 * `keyNamed`, by the rule dispatch and the footer follow: commands/text-takes.ts). The palette is
 * drawn under the screen, whose sentences stay in view: while it has the caret, a letter typed goes
 * into it, so the screen's sentences name no letter.
 */
import { describe, expect, it } from 'vitest';
import { keyHintText, said } from '../../src/commands/keymap';
import { resolveKey } from '../../src/keys/dispatch';
import { renderApp } from '../helpers/app';

describe('a key named in a sentence works there', () => {
  it('renewals: "a marks every renewable line" is not said while the palette types the a', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('nav.renewals');
    const hint = said(keyHintText('renewals.markAll'), 'marks every renewable line')!;
    await app.waitFrame((f) => f.includes(hint));
    await app.press('app.palette');
    // The first frame with the palette open (its footer offers its Enter): the renewals under it,
    // but the letter is typed, not run, and not offered.
    let drawn = '';
    await app.waitFrame((f) => {
      drawn = f;
      return f.includes('Renewals —') && f.includes(`${keyHintText('palette.run')} run`);
    });
    expect(resolveKey(app.store.getState(), keyHintText('renewals.markAll'))).toBeUndefined();
    expect(drawn).not.toContain(hint);
  });
});
