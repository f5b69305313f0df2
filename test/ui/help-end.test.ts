/** Help scrolled to its end draws its last rows, whatever heading a column repeats or moves. */
import { afterEach, describe, expect, it } from 'vitest';
import { helpScopes, type Scope } from '../../src/commands/keymap';
import { applyUserKeys, resetUserKeys } from '../../src/commands/user-keys';
import { helpLayout, helpRowsOf } from '../../src/ui/overlays/HelpOverlay';

afterEach(resetUserKeys);

describe("help's rows as heard", () => {
  it('name a command of yours with no key as it is typed, and alternative keys with "or"', () => {
    applyUserKeys({ commands: [{ name: 'crm', scope: 'line', program: 'crm-sync', label: 'Sync' }] });
    const rows = helpRowsOf(helpScopes('lines'));
    // Heard ":run crm", not ":run or crm" (two keys).
    expect(rows.at(-1)).toMatchObject({ keys: ':run crm', said: ':run crm' });
    const several = rows.find((r) => r.kind === 'key' && r.keys.includes(' ') && !r.keys.startsWith(':'));
    expect(several).toBeDefined();
    if (several?.kind === 'key') expect(several.said).toBe(several.keys.split(' ').join(' or '));
  });
});

describe("help's last rows", () => {
  it('are drawn at the end of the list at every height and width (with a command of yours with no key last)', () => {
    for (const mine of [false, true]) {
      if (mine)
        applyUserKeys({ commands: [{ name: 'crm', scope: 'line', program: 'crm-sync', label: 'Sync' }] });
      for (const screen of ['lines', 'detail', 'renewals', 'journal'] as Scope[]) {
        const rows = helpRowsOf(helpScopes(screen));
        for (const width of [80, 100, 240])
          for (let height = 6; height <= 30; height++) {
            const { laid, win } = helpLayout(rows, width, height, rows.length);
            const drawn = laid.flat();
            expect(drawn.at(-1), `${screen} ${width}×${height}`).toEqual(rows.at(-1));
            expect(win.end).toBe(rows.length);
          }
        // Listed where its key would work: a line's screens, not the renewals or the journal.
        const last = expect(rows.at(-1), screen);
        if (mine && (screen === 'lines' || screen === 'detail'))
          last.toMatchObject({ keys: ':run crm', label: 'Sync' });
        else last.not.toMatchObject({ keys: ':run crm' });
      }
    }
  });
});
