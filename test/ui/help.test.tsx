/** Help tells the truth at every width, and works inside the new-line form (issue 24). */
import { describe, expect, it } from 'vitest';
import { helpScopes } from '../../src/commands/keymap';
import { SCOPE_TITLES } from '../../src/commands/keys-doc';
import { selectDialog } from '../../src/store/view-stack';
import { helpLayout, helpRowsOf } from '../../src/ui/overlays/HelpOverlay';
import { renderApp } from '../helpers/app';

describe('help laid out in columns', () => {
  it('at 120 and 200 columns no description is cut, and every column starts with its section’s heading', () => {
    for (const screen of ['lines', 'detail', 'renewals'] as const) {
      const rows = helpRowsOf(helpScopes(screen));
      for (const width of [120, 200]) {
        for (const scroll of [0, 7]) {
          const { laid, labelWidth } = helpLayout(rows, width, 22, scroll);
          for (const column of laid) {
            expect(column[0]?.kind, `${screen} at ${width}`).toBe('title');
            expect(column.at(-1)?.kind, `${screen} at ${width}: a heading at a column's foot`).toBe('key');
            for (const r of column)
              if (r.kind === 'key')
                expect(r.label.length, `${r.label} at ${width}`).toBeLessThanOrEqual(labelWidth);
          }
        }
      }
    }
    // A section that goes on in the next column says whose keys they are.
    const rows = helpRowsOf(helpScopes('lines'));
    const { laid } = helpLayout(rows, 240, 22, 0);
    expect(laid.length).toBeGreaterThan(1);
    expect(laid[1]![0]).toMatchObject({ kind: 'title' });
    expect(
      Object.values(SCOPE_TITLES).some((t) => (laid[1]![0] as { text: string }).text.startsWith(t)),
    ).toBe(true);
  });
});

describe('? inside the new-line form', () => {
  it('on a choice field opens help listing the form’s keys; Esc returns to the form as it was', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('line.create');
    await app.waitFrame((f) => f.includes('New line —'));
    const s = () => app.store.getState();
    expect(s().form?.focus).toBe('package');
    await app.waitFrame(() => s().form?.values.packageId != null);
    const before = s().form;
    await app.press('form.help');
    await app.waitFrame((f) => f.includes(SCOPE_TITLES.form) && f.includes('Keys —'));
    await app.press('help.close');
    await app.waitFrame((f) => f.includes('New line —'));
    expect(selectDialog(s())).toBe('form');
    expect(s().form).toEqual(before);
  });
});
