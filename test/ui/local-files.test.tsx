import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileJournal } from '../../src/app/journal-file';
import { renderApp } from '../helpers/app';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ld-local-ui-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('a journal with lines of the wrong shape (issue 23)', () => {
  it('5 shows the good entries and names what was skipped; the app goes on', async () => {
    const file = join(root, 'journal.jsonl');
    const good = {
      time: '2026-11-22T10:00:00.000Z',
      target: 'sandbox:test', // the test store's account (issue 24: the view shows one account)
      operation: 'extend',
      lineId: 'l1',
      username: 'gooduser0001',
      quotedCost: 3,
      estimate: true,
      deducedCredits: 3,
      newBalance: 97,
      outcome: 'applied',
    };
    writeFileSync(file, `{}\nnull\n42\n${JSON.stringify(good)}\n`);
    const app = await renderApp({}, { journal: fileJournal(file) });
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
    await app.press('nav.journal');
    await app.waitFrame((f) => /Journal — .* 1 entry/.test(f) && f.includes('gooduser0001'));
    expect(app.frame()).toMatch(/3 lines skipped/);
    await app.press('nav.lines');
    await app.waitFrame((f) => /\d+–\d+ of \d+/.test(f));
  });
});
