/**
 * The new-line form and its bouquet picker name the keys as the config has them (issue 28, your
 * keys): a field's hint and the picker's flash read the command table, never a key typed by hand.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { applyUserKeys, resetUserKeys } from '../../src/commands/user-keys';
import { type JournalEntry, memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';

afterEach(() => resetUserKeys());

describe('the form’s keys, remapped', () => {
  it('each field’s hint names its keys as they are now; the picker’s “again” too', async () => {
    const { problems } = applyUserKeys({
      keys: {
        'form.decrease': 'PgUp',
        'form.increase': 'PgDn',
        'form.generate': 'Ctrl-R',
        'form.toggle': 'Ctrl-T',
        'picker.same': 'Ctrl-O',
      },
    });
    expect(problems).toEqual([]);
    const journal = memoryJournal();
    journal.append({
      time: new Date().toISOString(),
      target: 'sandbox',
      operation: 'create',
      lineId: 'x',
      username: 'earlier01',
      quotedCost: 1,
      estimate: false,
      deducedCredits: 1,
      newBalance: 999,
      outcome: 'applied',
      bouquets: [1],
    } as JournalEntry);
    const app = await renderApp({ lines: 40 }, { journal });
    await app.waitFrame((f) => f.includes('USERNAME'));
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —'));
    await app.waitFrame((f) => f.includes('PgUp/PgDn choose'));
    await app.press('form.next');
    await app.waitFrame((f) => f.includes('PgUp/PgDn 1 to 6'));
    await app.press('form.next');
    await app.waitFrame((f) => f.includes('blank: random; Ctrl-R fills one'));
    expect(app.frame()).not.toMatch(/Ctrl-G|←\/→/);
    app.store.setState({ form: { ...app.store.getState().form!, focus: 'enabled' } });
    await app.waitFrame((f) => f.includes('Ctrl-T toggles'));
    app.store.setState({ form: { ...app.store.getState().form!, focus: 'bouquets' } });
    await app.press('form.toggle');
    await app.waitFrame((f) => f.includes('filter:'));
    await app.press('picker.same');
    await app.waitFrame((f) => f.includes('Same bouquets as earlier01 (1); Ctrl-O again for an older line'));
  });
});
