/**
 * The screen-reader mode as Ink renders it (issue 28): Ink reads INK_SCREEN_READER=true itself, so the
 * test renderer draws what a screen reader gets: rows as sentences, no boxes, a bulk job's progress in
 * steps of 10% with nothing that moves at every line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellWidth } from '../../src/domain/format';
import { type JournalEntry, memoryJournal } from '../../src/services/changes/journal';
import { glyphMode, setGlyphMode } from '../../src/ui/glyphs';
import { renderApp } from '../helpers/app';

beforeAll(() => {
  process.env.INK_SCREEN_READER = 'true';
});
afterAll(() => {
  delete process.env.INK_SCREEN_READER;
});

describe('the screen-reader mode, frame by frame', () => {
  it('rows are sentences, the selected one said; a bulk job says its progress in steps, never a bar', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => /^\(selected\) \S+, .*\d+ connections?, (expires|expired|never)/m.test(f));
    expect(app.frame()).not.toMatch(/USERNAME|[╭│─›●]/);
    await app.press('lines.filterType'); // premium: extend applies to every one
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    await app.press('lines.markPage');
    await app.waitFrame((f) => /^\(selected\) .*, marked$/m.test(f));
    await app.press('line.extend');
    await app.waitFrame((f) => /^pending, Username: /m.test(f));
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('Finished'));
    const frames = app.ui.frames.map((f) => f.replace(/\u001b\[[0-9;]*m/g, ''));
    expect(frames.some((f) => f.includes('Progress:'))).toBe(true);
    for (const f of frames) {
      expect(f).not.toMatch(/[█░╭╮╰╯│]/);
      const step = /Progress: (\d+)% of \d+ lines/.exec(f);
      if (step) {
        expect(Number(step[1]) % 10).toBe(0);
        // Nothing that moves at every line while it runs: no line states, no balance.
        expect(f).not.toMatch(/^(pending|done|sending), /m);
        expect(f).not.toMatch(/\d credits? /);
        // No line is said while it runs: no scroll keys are named (they are not offered then).
        expect(f).not.toMatch(/^ *lines \d+–\d+ of \d+ \(.*scroll\)/m);
      }
    }
  });

  it('the detail and help are said in words: the diagnosis with a pause before its keys, the password hidden, a label whole', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => f.startsWith('(selected) ') || /^\(selected\) /m.test(f));
    for (let i = 0; i < 4; i++) await app.press('lines.filterStatus');
    await app.waitFrame((f) => f.includes('status expired') && /^\(selected\) /m.test(f));
    await app.press('lines.open');
    await app.waitFrame((f) => /^Diagnosis: /m.test(f));
    expect(app.frame()).toMatch(/^Diagnosis: expired [^\n]*; (e extends|c a new line)/m);
    expect(app.frame()).not.toMatch(/^Diagnosis: .* to (e|c) /m);
    expect(app.frame()).toMatch(/^Password: hidden \(p shows\)$/m);
    // The connection links are heard before the rows that only say the list lacks a value.
    expect(app.frame()).toMatch(/^MAG portal: b copies /m);
    await app.press('app.back');
    await app.waitFrame((f) => !/^Diagnosis: /m.test(f));
    await app.press('app.help');
    await app.waitFrame((f) => f.includes('Keys'));
    expect(app.frame()).toMatch(/^y: Copy\.\.\. from the line under the cursor/m);
    expect(app.frame()).toMatch(/^Keys - lines screen \(Esc closes\), 1/m);
  });

  it('the column picker says each column in words and which one is selected', async () => {
    const app = await renderApp({ lines: 40 });
    await app.waitFrame((f) => /^\(selected\) /m.test(f));
    await app.press('lines.columns');
    await app.waitFrame((f) => f.includes('Columns of the lines browser'));
    await app.press('columns.down');
    await app.waitFrame((f) => /^\(selected\) LABEL, shown, column 2$/m.test(f));
    expect(app.frame()).toMatch(/^USERNAME, shown, column 1$/m);
    expect(app.frame()).toMatch(/^NOTE, hidden$/m);
  });

  it('the account screen says each row as "Name: value", and the lines that lapse first as sentences', async () => {
    const app = await renderApp({ lines: 40, credits: 3 }, { runwayAtStart: true });
    await app.waitFrame((f) => /^\(selected\) /m.test(f));
    await app.press('nav.account');
    await app.waitFrame(
      (f) => f.includes('First to lapse') && /, Renews: lapses$/m.test(f) && f.includes('By type'),
    );
    const f = app.frame();
    expect(f).toMatch(/^Credits: 3$/m);
    expect(f).toMatch(/^Runway: covers [^\n]* of renewals: /m);
    expect(f).toMatch(/^\S+, [^\n]*\d+ connections?, [^\n]*, Renews: lapses$/m);
    // A dot between groups is said as a comma, with no space before it.
    expect(f).toMatch(/^By type: \d+ premium, \d+ trial$/m);
    expect(f).not.toMatch(/USERNAME|COST~/);
  });

  it('a dialog says what stops its confirm in words, not with a glyph read as a letter', async () => {
    const before = glyphMode();
    setGlyphMode('speech');
    try {
      const app = await renderApp({ lines: 40 });
      await app.waitFrame((f) => /^\(selected\) /m.test(f));
      await app.press('line.delete');
      await app.waitFrame((f) => f.includes('Type the username to confirm'));
      expect(app.frame()).toMatch(/error: Type the username to confirm/);
      expect(app.frame()).not.toContain('✗');
    } finally {
      setGlyphMode(before);
    }
  });

  it('a bulk preview of many lines at 60×24 fits the terminal: its sentences wrap, and how to start stays on screen', async () => {
    const app = await renderApp({ lines: 40 });
    Object.defineProperty(app.ui.stdout, 'columns', { value: 60, configurable: true });
    Object.defineProperty(app.ui.stdout, 'rows', { value: 24, configurable: true });
    app.ui.stdout.emit('resize');
    await app.waitFrame((f) => /^\(selected\) /m.test(f));
    await app.press('lines.filterType'); // premium: extend applies to every one
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    await app.press('lines.markAll');
    await app.waitFrame((f) => /\d+ marked/.test(f) && !f.includes('marking'));
    await app.press('line.extend');
    await app.waitFrame((f) => /^pending, Username: /m.test(f) && f.includes('affordable'));
    // The terminal wraps each written row at 60 cells: the rows it takes, not the rows written.
    const rows = app
      .frame()
      .split('\n')
      .reduce((n, r) => n + Math.max(1, Math.ceil(cellWidth(r.trimEnd()) / 60)), 0);
    expect(rows).toBeLessThanOrEqual(24);
    expect(app.frame()).toMatch(/Enter (starts|waits a moment)/);
  });

  it('renewals and marks at 80×24: the selected row stays on screen when its sentences wrap (the last one too)', async () => {
    const app = await renderApp({ lines: 120 });
    Object.defineProperty(app.ui.stdout, 'columns', { value: 80, configurable: true });
    Object.defineProperty(app.ui.stdout, 'rows', { value: 24, configurable: true });
    app.ui.stdout.emit('resize');
    const terminalRows = (f: string) =>
      f.split('\n').reduce((n, r) => n + Math.max(1, Math.ceil(cellWidth(r.trimEnd()) / 80)), 0);
    /** The selected row within the 24 rows the terminal shows, once each row is wrapped at 80. */
    const selectedShown = (f: string) => {
      const rows = f.split('\n');
      const at = rows.findIndex((r) => r.startsWith('(selected) '));
      return at >= 0 && terminalRows(rows.slice(0, at + 1).join('\n')) <= 24 - 2;
    };
    await app.waitFrame((f) => /^\(selected\) /m.test(f));
    await app.press('nav.renewals');
    await app.waitFrame((f) => f.includes('Renewals') && /^\(selected\) /m.test(f));
    await app.press('renewals.last');
    await app.waitFrame(selectedShown);
    for (let i = 0; i < 6; i++) await app.press('renewals.up');
    await app.waitFrame(selectedShown);
    expect(terminalRows(app.frame())).toBeLessThanOrEqual(24);
    // The marks view: its last line selected.
    await app.press('nav.lines');
    await app.waitFrame((f) => !f.includes('Renewals') && /^\(selected\) /m.test(f));
    await app.press('lines.markAll');
    await app.waitFrame((f) => f.includes('120 marked'));
    await app.press('lines.marks');
    await app.waitFrame((f) => f.includes('Marked lines: 120'));
    for (let i = 0; i < 119; i++) await app.press('marks.down');
    await app.waitFrame((f) => f.includes('Marked lines: 120') && selectedShown(f));
  });

  it('the journal: entries of several rows each are windowed by the rows they take, so the oldest is reached', async () => {
    const journal = memoryJournal();
    for (let i = 1; i <= 15; i++)
      journal.append({
        opId: `job:${i}`,
        time: new Date(Date.UTC(2026, 10, 20, 10, i)).toISOString(),
        target: 'sandbox:test',
        operation: 'extend',
        lineId: `id${i}`,
        username: `customer-number-${String(i).padStart(2, '0')}`,
        quotedCost: 4,
        estimate: true,
        deducedCredits: 4,
        newBalance: 1000 - 4 * i,
        outcome: 'applied',
        detail: 'extended by one month after the customer paid at the shop counter',
      } as JournalEntry);
    const app = await renderApp({ lines: 40 }, { journal });
    await app.waitFrame((f) => /^\(selected\) /m.test(f));
    await app.press('nav.journal');
    // What the terminal shows: each written row wrapped at its 100 columns, within its 24 rows.
    const fits = (f: string) =>
      f.split('\n').reduce((n, r) => n + Math.max(1, Math.ceil(cellWidth(r.trimEnd()) / 100)), 0) <= 24;
    await app.waitFrame((f) => f.includes('customer-number-15'));
    expect(fits(app.frame())).toBe(true);
    for (let i = 0; i < 15; i++) await app.press('journal.down');
    await app.waitFrame((f) => f.includes('customer-number-01'));
    expect(fits(app.frame())).toBe(true);
  });
});
