/**
 * Text names the keys as the config has them (issue 28, your keys): the new-line form's hints, the
 * bouquet picker's flash, a change dialog's refusal read the command table, never a key typed by hand.
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

describe('a change dialog, its keys remapped', () => {
  it('no cost known: the refusal names no key of its own; the footer names the remapped one', async () => {
    applyUserKeys({ keys: { 'action.cancel': 'Ctrl-X' } });
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => f.includes('type all') && f.includes('USERNAME'));
    await app.press('lines.filterType'); // premium: upgrade applies
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    app.sb.faults.set('error500=1');
    await app.press('line.upgrade');
    await app.waitFrame((f) => f.includes('No cost known'));
    expect(app.frame()).toContain('Ctrl-X back');
    expect(app.frame()).not.toContain('Esc');
  });
});
