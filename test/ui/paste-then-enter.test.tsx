/**
 * Typed text is keys to the confirm gate (keys/input.ts: "an Enter at the tail of typed text is a
 * burst"), a paste is not: handlePaste types it without keyArrived. So the delete count pasted and an
 * Enter in the same read (a terminal that sends the paste's newline after its end marker, a
 * paste-and-enter macro) starts the job, where the same count typed and Enter in one read is held.
 */
import { expect, it } from 'vitest';
import { BURST_GAP_MS, CONFIRM_ARM_MS } from '../../src/keys/confirm-gate';
import { PASTE_END, PASTE_START } from '../../src/keys/paste';
import { renderApp } from '../helpers/app';
import { openBulkPreview } from '../helpers/bulk-preview';

for (const how of ['typed', 'pasted'] as const)
  it(`the delete count ${how} and Enter in one read start nothing`, async () => {
    const app = await renderApp({ lines: 40 }, { now: () => 1_900_000_000_000 });
    const s = () => app.store.getState();
    await openBulkPreview(app, { mark: 'page', op: 'line.delete' });
    await app.waitFrame((f) => /Type \d+ to confirm/.test(f));
    const count = String(s().bulk!.job.lines.filter((l) => l.state === 'pending').length);
    app.clock.advance(CONFIRM_ARM_MS * 2 + BURST_GAP_MS);
    app.ui.stdin.write(how === 'typed' ? `${count}\r` : `${PASTE_START}${count}${PASTE_END}\r`);
    await app.waitFrame(() => s().bulk?.typed === count);
    await app.waitFrame((f) => f.includes('press Enter again') || s().bulk?.phase !== 'preview');
    expect(s().bulk?.phase).toBe('preview');
  });

it('a paste (ignored: nothing takes text) and Enter in one read charge nothing in the change dialog', async () => {
  const { memoryJournal } = await import('../../src/services/changes/journal');
  const { books, sandbox } = await import('../helpers/sandbox');
  const env = await sandbox({ lines: 40, credits: 1000 });
  const app = await renderApp({}, { journal: memoryJournal() }, env);
  const s = () => app.store.getState();
  await app.waitFrame((f) => /1–\d+ of 40/.test(f) && s().account.status === 'ready');
  await app.press('lines.filterType'); // premium
  await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
  await app.press('line.extend');
  await app.waitFrame((f) => f.includes('estimate from package prices') && s().action?.phase === 'review');
  app.clock.advance(CONFIRM_ARM_MS * 2 + BURST_GAP_MS);
  app.ui.stdin.write(`${PASTE_START}some text${PASTE_END}\r`);
  await app.waitFrame((f) => f.includes('Paste ignored') || s().action?.phase !== 'review');
  await app.waitFrame((f) => f.includes('press Enter again') || s().action?.phase !== 'review');
  expect(s().action?.phase).toBe('review');
  expect(books(env.sb).ledger).toHaveLength(0);
});
