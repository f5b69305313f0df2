import { describe, expect, it, vi } from 'vitest';
import { loaded } from '../../src/domain/load';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';

/** The MAC address and the parental code: list items omit them (the interface document says so);
 *  single-line responses (create, extend, upgrade, unsuspend) carry them. */
describe('the detail of a line: MAC address and parental code', () => {
  it('before any single-line response: says where they come from; after an extend: shows them, and keeps them over a reload', async () => {
    const app = await renderApp({}, { journal: memoryJournal() });
    await app.press('lines.filterType'); // premium: extend applies
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    const line = loaded(app.store.getState().lines)!.lines[0]!;
    app.sb.repo.db
      .prepare('UPDATE lines SET macaddress = ?, parental_code = ? WHERE id = ?')
      .run('00:1A:79:AA:BB:CC', '4321', line.id);
    await app.press('lines.open');
    await app.waitFrame((f) => f.includes('Diagnosis'));
    expect(app.frame()).toMatch(/MAC address\s+not in the list; shown once the service returns the line/);
    expect(app.frame()).not.toContain('shown after a change');
    await vi.waitFor(() => expect(app.store.getState().packages.status).toBe('ready'));
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('estimate from package prices'));
    await app.press('action.increase'); // 3 months: every seeded package has it
    await app.waitFrame((f) => f.includes('‹ 3 months ›') && /Cost\s+\d+ credits/.test(f));
    await app.confirm('action.confirm');
    await app.waitFrame((f) => f.includes('Charged'));
    await app.press('action.cancel');
    await app.waitFrame((f) => f.includes('Diagnosis') && !f.includes('Charged'));
    // The browser reloads its page after the change (list items, no MAC): the detail keeps them.
    await app.press('app.refresh');
    await app.waitFrame((f) => /MAC address\s+00:1A:79:AA:BB:CC/.test(f) && /Parental code\s+4321/.test(f));
  });
});
