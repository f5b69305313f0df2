/** Renewals: the page keys move by what is on screen; g/G/Home/End reach the ends (issue 24). */
import { describe, expect, it } from 'vitest';
import { selectRenewalsPlan } from '../../src/store/renewals-slice';
import { renderApp } from '../helpers/app';

describe('renewals keys', () => {
  it('PgDn moves a screenful (not 10 rows), PgUp back; G/End go to the last line, g/Home to the first', async () => {
    const app = await renderApp({ lines: 600 });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('nav.renewals');
    await app.waitFrame(
      () => app.store.getState().renewals.status === 'ready' && !!app.store.getState().drawn.renewals,
    );
    const s = () => app.store.getState();
    const rows = selectRenewalsPlan(s())!.rows.length;
    const shown = s().drawn.renewals!.rows;
    // A screenful that a fixed page of ten would not match.
    expect(shown).toBeGreaterThan(11);
    expect(rows).toBeGreaterThan(shown * 2);
    await app.press('renewals.pageDown');
    await app.waitFrame(() => s().renewalsCursor === shown - 1);
    await app.press('renewals.pageUp');
    await app.waitFrame(() => s().renewalsCursor === 0);
    await app.press('renewals.last');
    await app.waitFrame(() => s().renewalsCursor === rows - 1);
    await app.press('renewals.first');
    await app.waitFrame(() => s().renewalsCursor === 0);
    app.ui.stdin.write('\u001b[F'); // End
    await app.waitFrame(() => s().renewalsCursor === rows - 1);
  });
});
