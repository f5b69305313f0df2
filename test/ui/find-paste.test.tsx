/**
 * Pasting what people paste (issue 24): a ticket's list pasted into `/` searches its first name
 * and says that pasting in the browser marks them all; a pasted multi-line note keeps its lines.
 */
import { describe, expect, it } from 'vitest';
import { renderApp } from '../helpers/app';

const paste = (text: string) => `\u001b[200~${text}\u001b[201~`;

describe('pastes', () => {
  it('/ then a pasted list: the first name is searched, and the flash says the browser marks them all', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => f.includes('USERNAME'));
    const names = (await app.client.listLines({ limit: 3, offset: 10 })).lines.map((l) => l.username);
    await app.press('lines.search');
    app.ui.stdin.write(paste(names.join('\n')));
    await app.waitFrame((f) => f.includes('to mark all 3, press Esc and paste in the browser'));
    expect(app.store.getState().searchDraft).toBe(names[0]);
    expect(app.store.getState().flash?.text).toBe(
      'First of 3 pasted names searched; to mark all 3, press Esc and paste in the browser',
    );
    app.ui.unmount();
  });
});
