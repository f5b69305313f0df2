import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { keyHintText } from '../../src/commands/keymap';
import { loaded } from '../../src/domain/load';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';
import { books } from '../helpers/sandbox';

const expOf = (app: Awaited<ReturnType<typeof renderApp>>, id: string) =>
  (app.sb.repo.db.prepare('SELECT exp_date FROM lines WHERE id = ?').get(id) as { exp_date: number })
    .exp_date;

describe('bulk edits', () => {
  it('mark 5 lines on two pages, bulk extend: preview, total, run; balance and expiries in the sandbox', async () => {
    const journal = memoryJournal();
    const app = await renderApp({}, { journal });
    await app.waitFrame((f) => /1–\d+ of 60/.test(f));
    await app.press('lines.filterType'); // premium: extend applies to every one
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    for (let i = 0; i < 3; i++) await app.press('lines.mark');
    await app.press('lines.pageNext');
    await app.waitFrame((f) => /19–/.test(f) && !f.includes('loading'));
    await app.press('lines.mark');
    await app.press('lines.mark');
    await app.waitFrame((f) => f.includes('5 marked'));
    const marked = [...app.store.getState().marked.values()];
    const before = new Map(marked.map((m) => [m.id, expOf(app, m.id)]));
    const expected = marked.reduce((sum, m) => sum + m.line.connections, 0); // 1 month: 1 + 1 × (connections − 1)

    await app.press('line.extend');
    await app.waitFrame(
      (f) => f.includes('Extend 5 marked lines') && f.includes('3 of the 5 marked lines are not on the page'),
    );
    await app.waitFrame((f) => f.includes(`Total ${expected} credits`) && f.includes('5 of 5 affordable'));
    // From the marks view every marked line is in view: the warning would be beside the point.
    await app.press('bulk.close');
    await app.press('lines.marks');
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('Extend 5 marked lines') && f.includes('5 of 5 affordable'));
    expect(app.frame()).not.toContain('not on the page');
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('Finished') && f.includes('done 5'));
    // Nothing failed or unknown: the retry and recheck keys are not offered (they would be refused).
    expect(app.frame()).toMatch(/Finished\. x exports *│/);
    expect(app.frame()).not.toContain('retries');
    const b = books(app.sb);
    expect(b.spent).toBe(expected);
    expect(b.ledger).toHaveLength(5);
    for (const m of marked) expect(expOf(app, m.id)).toBeGreaterThan(before.get(m.id)!);
    expect(journal.entries.filter((e) => e.outcome === 'applied')).toHaveLength(5);
    await app.press('bulk.close');
    await app.waitFrame((f) => !f.includes('marked  ['));
    expect(app.store.getState().marked.size).toBe(0); // done lines leave the marks
  });

  it('will not start over the balance unless only the affordable ones are picked', async () => {
    const app = await renderApp({ credits: 5 });
    await app.waitFrame((f) => /1–\d+ of 60/.test(f));
    await app.press('lines.filterType');
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    await app.press('lines.markPage');
    await app.press('line.extend');
    // The refusal names the key that helps, as the keymap binds it.
    await app.waitFrame((f) =>
      f.includes(
        `The total exceeds the balance: ${keyHintText('bulk.affordable')} picks only the affordable ones`,
      ),
    );
    await app.press('bulk.start');
    expect(books(app.sb).ledger).toHaveLength(0);
    await app.press('bulk.affordable');
    await app.waitFrame((f) => f.includes('ONLY THE AFFO'));
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('Finished'));
    const b = books(app.sb);
    expect(b.spent).toBeLessThanOrEqual(5);
    expect(b.spent).toBeGreaterThan(0);
    expect(b.balance).toBeGreaterThanOrEqual(0);
  });

  it('cancel stops scheduling: lines not yet sent stay unsent; results export as CSV and JSON', async () => {
    const files = new Map<string, string>();
    const writeExport = (name: string, content: string) => {
      files.set(name, content);
      return `/x/${name}`;
    };
    const app = await renderApp({}, { bulkConcurrency: 1, writeExport });
    await app.waitFrame((f) => /1–\d+ of 60/.test(f));
    await app.press('lines.filterType');
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    await app.press('lines.markPage');
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('affordable'));
    app.sb.faults.set('latency=80');
    await app.confirm('bulk.start');
    await app.waitFrame((f) => /done [1-9]/.test(f));
    // While it runs the footer offers cancel, never "start" again.
    const footer = app.frame().split('\n').at(-1)!;
    expect(footer).toContain('c cancel');
    expect(footer).not.toContain('start the job');
    await app.press('bulk.cancel');
    await app.waitFrame((f) => f.includes('Finished'));
    // Cancelled lines can be retried: the key is offered.
    expect(app.frame()).toContain('Finished. f retries the failed and cancelled ones');
    const job = app.store.getState().bulk!.job;
    const done = job.lines.filter((l) => l.state === 'done').length;
    // Recorded as cancelled (never "interrupted"): nothing of it is offered again at the next start.
    expect(job.lines.filter((l) => l.state === 'cancelled').length).toBeGreaterThan(0);
    expect(job.lines.filter((l) => l.state === 'pending')).toHaveLength(0);
    expect(books(app.sb).ledger).toHaveLength(done); // nothing beyond what finished was sent
    await app.press('bulk.export');
    await app.waitFrame((f) => f.includes('Results exported'));
    const csv = [...files.entries()].find(([n]) => n.endsWith('.csv'))![1];
    expect(csv.split('\n')[0]).toBe('id,username,state,detail,cost,deducedCredits,newBalance');
    expect(csv.trim().split('\n')).toHaveLength(job.lines.length + 1);
    const json = JSON.parse([...files.entries()].find(([n]) => n.endsWith('.json'))![1]);
    expect(json.lines).toHaveLength(job.lines.length);
  });

  it('bulk delete asks for the number of lines', async () => {
    const app = await renderApp();
    await app.waitFrame((f) => /1–\d+ of 60/.test(f));
    await app.press('lines.mark');
    await app.press('lines.mark');
    await app.press('line.delete');
    await app.waitFrame((f) => f.includes('Type 2 to confirm'));
    await app.press('bulk.start');
    // Refused on the spot: the job never starts (a started job is 'running' at once).
    expect(app.store.getState().bulk?.phase).toBe('preview');
    expect(app.store.getState().flash?.text).toBe('Type 2 to confirm');
    expect(app.sb.repo.linesCount(1)).toBe(60);
    await app.type('2');
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('Finished') && f.includes('done 2'));
    expect(app.sb.repo.linesCount(1)).toBe(58);
  });

  it('an interrupted job resumes: in-flight lines are checked first, nothing is charged twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-job-'));
    const intents = fileIntentLog(join(dir, 'intents'));
    // A first session runs, and dies with one line applied-but-unconfirmed and one never sent.
    const first = await renderApp({}, { intents });
    await first.waitFrame((f) => /1–\d+ of 60/.test(f));
    await first.press('lines.filterType');
    await first.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    const [a, b2, c] = loaded(first.store.getState().lines)!.lines;
    await first.press('lines.mark');
    await first.press('lines.mark');
    await first.press('lines.mark');
    await first.press('line.extend');
    await first.waitFrame((f) => f.includes('affordable'));
    const job = first.store.getState().bulk!.job;
    // Simulate the crash: line a done, line b in flight (applied on the server), line c never sent.
    intents.begin({ ...job, balanceBefore: (await first.client.me()).credits });
    await first.client.extendLine({ id: a!.id, duration: 1 });
    intents.line(job.id, {
      ...job.lines[0]!,
      state: 'done',
      deducedCredits: a!.connections,
      charge: 'reply',
    });
    await first.client.extendLine({ id: b2!.id, duration: 1 });
    intents.line(job.id, { ...job.lines[1]!, state: 'sending' });
    first.ui.unmount();

    const second = await renderApp({}, { intents }, first);
    // Checked before anything else: b was applied (the line shows it, the balance fell by its cost).
    await second.waitFrame(
      (f) =>
        f.includes('Changes left open') &&
        f.includes('1 never sent') &&
        f.includes(`${b2!.username} (line ${b2!.id}): applied, charged ${b2!.connections} credits`),
    );
    await second.confirm('resume.yes');
    await second.waitFrame((f) => f.includes('Finished') && f.includes('done 3'));
    // a and b were charged once each before the crash; the resumed job sent only c.
    const ledger = books(second.sb).ledger;
    expect(ledger.map((r) => r.line_id)).toEqual([a!.id, b2!.id, c!.id]);
    expect(intents.open()).toEqual([]); // finished: nothing left to resume
  });

  it('cancel, retry the failed, close, extend the marks again: no line is extended twice (item 3)', async () => {
    const app = await renderApp({}, { bulkConcurrency: 1 });
    await app.waitFrame((f) => /1–\d+ of 60/.test(f));
    await app.press('lines.filterType');
    await app.waitFrame((f) => f.includes('type premium') && !f.includes('loading'));
    await app.press('lines.markPage');
    const marked = app.store.getState().marked.size;
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('affordable'));
    app.sb.faults.set('latency=40');
    await app.confirm('bulk.start');
    await app.waitFrame((f) => /done [2-9]/.test(f));
    await app.press('bulk.cancel');
    await app.waitFrame((f) => f.includes('Finished'));
    // Cancelled lines can be retried: the key is offered.
    expect(app.frame()).toContain('Finished. f retries the failed and cancelled ones');
    app.sb.faults.set('');
    const done = app.store.getState().bulk!.job.lines.filter((l) => l.state === 'done').length;
    // The done lines left the marks as they finished; the rest stay marked.
    expect(app.store.getState().marked.size).toBe(marked - done);
    await app.press('bulk.retry');
    await app.waitFrame((f) => f.includes('affordable'));
    await app.press('bulk.close');
    await app.waitFrame((f) => f.includes('USERNAME'));
    await app.press('line.extend');
    await app.waitFrame((f) => f.includes('affordable'));
    await app.confirm('bulk.start');
    await app.waitFrame((f) => f.includes('Finished'));
    const perLine = new Map<string, number>();
    for (const r of books(app.sb).ledger) perLine.set(r.line_id, (perLine.get(r.line_id) ?? 0) + 1);
    expect(perLine.size).toBe(marked);
    expect([...perLine.values()].every((n) => n === 1)).toBe(true);
  });

  it('upgrade preview: skipped lines show no target; only-the-affordable total is theirs (item 13)', async () => {
    const app = await renderApp({ credits: 3 });
    await app.waitFrame((f) => /1–\d+ of 60/.test(f));
    await app.press('lines.markPage');
    await app.press('line.upgrade');
    await app.waitFrame((f) => f.includes('Set connections of') && !f.includes('Asking the server'));
    const frame = app.frame();
    // A trial or already-at-target line: no "1 → 1 connections", its reason instead.
    for (const row of frame.split('\n').filter((r) => r.includes('skipped')))
      expect(row).not.toMatch(/\d → \d connections/);
    const total = (f: string) => Number(/Total ([\d,]+) credits?/.exec(f)![1]!.replace(/,/g, ''));
    const all = total(frame);
    await app.press('bulk.affordable');
    await app.waitFrame((f) => f.includes('ONLY THE AFFORDABLE'));
    const only = total(app.frame());
    expect(only).toBeLessThanOrEqual(3);
    expect(only).toBeLessThan(all);
  });
});
