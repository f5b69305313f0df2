import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileJournal } from '../../src/app/journal-file';
import { type JournalEntry, journalTotals, toCsv } from '../../src/services/changes/journal';

const entry = (over: Partial<JournalEntry> = {}): JournalEntry => ({
  time: '2026-11-22T10:00:00.000Z',
  target: 'http://127.0.0.1:7411',
  operation: 'extend',
  lineId: 'l1',
  username: 'someuser0001',
  quotedCost: 3,
  estimate: true,
  deducedCredits: 3,
  newBalance: 97,
  outcome: 'applied',
  ...over,
});

/** An entry's line as the journal writes it (bytes: a torn write cuts them anywhere). */
const utf8 = (o: Partial<JournalEntry>) => Buffer.from(`${JSON.stringify(entry(o))}\n`);

/** The file's size in bytes; none yet: 0. */
const sizeOf = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

describe('journal', () => {
  it('a journal that cannot be read (a directory in its place) is named, never thrown', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-journal-'));
    const file = join(dir, 'journal.jsonl');
    mkdirSync(file);
    const j = fileJournal(file);
    expect(j.read()).toEqual([]);
    expect(j.skipped?.().join(' ')).toMatch(/journal\.jsonl could not be read \(EISDIR\)/);
  });

  it('appends JSONL (0600), reads it back, survives a torn last line, exports CSV', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-journal-'));
    const file = join(dir, 'journal.jsonl');
    const j = fileJournal(file);
    j.append(entry());
    j.append(entry({ operation: 'create', deducedCredits: 5 }));
    appendFileSync(file, '{"time":"2026-11-22T1'); // a crash mid-write
    expect(j.read()).toHaveLength(2);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const csv = readFileSync(j.exportCsv(), 'utf8');
    expect(csv.split('\n')[0]).toBe(
      'opId,time,target,operation,lineId,username,quotedCost,estimate,deducedCredits,newBalance,charge,outcome,detail,service,months,connectionsBefore,connectionsAfter,expiryBefore,expiryAfter',
    );
    expect(csv.trim().split('\n')).toHaveLength(3);
  });

  it('CSV cells are quoted, and a leading = + - @ cannot become a spreadsheet formula', () => {
    const csv = toCsv([entry({ username: '=HYPERLINK("x")', detail: 'a, "b"\nc' })]);
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv).toContain('"a, ""b""\nc"');
  });

  it('totals per day and operation', () => {
    const t = journalTotals([
      entry(),
      entry({ deducedCredits: 2 }),
      entry({ operation: 'delete', deducedCredits: null }),
      entry({ time: '2026-11-21T09:00:00Z' }),
    ]);
    expect(t[0]).toMatchObject({ day: '2026-11-22', operation: 'delete', count: 1, credits: 0 });
    expect(t[1]).toMatchObject({ day: '2026-11-22', operation: 'extend', count: 2, credits: 5 });
    expect(t[2]).toMatchObject({ day: '2026-11-21', operation: 'extend', count: 1 });
  });

  it('a line that is not JSON is damage once a line follows it; alone at the end, a torn write', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ld-journal-')), 'journal.jsonl');
    const j = fileJournal(file);
    j.append(entry());
    appendFileSync(file, '{"time":"2026-11-22T1\n');
    expect(j.read()).toHaveLength(1);
    expect(j.skipped?.()).toEqual([]);
    j.append(entry({ username: 'next' }));
    expect(j.read().map((e) => e.username)).toEqual(['someuser0001', 'next']);
    expect(j.skipped?.()).toEqual(['journal.jsonl: 1 line skipped, not journal entries (line 2: not JSON)']);
  });

  it('property: read after any appends, torn writes, edits in place, cuts and replacements equals a fresh read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-journal-prop-'));
    const op = fc.oneof(
      fc.record({ k: fc.constant('entry' as const), name: fc.constantFrom('ann', 'zoë', '用户', '🎬x') }),
      fc.record({ k: fc.constant('torn' as const), name: fc.constantFrom('zoë', '用户🎬'), cut: fc.nat() }),
      fc.record({
        k: fc.constant('raw' as const),
        text: fc.constantFrom('\n', '  \n', '{}\n', 'null\n', 'x', '{"a":'),
      }),
      fc.record({ k: fc.constant('edit' as const), at: fc.nat(), inPlace: fc.boolean() }),
      fc.record({ k: fc.constant('cut' as const), at: fc.nat() }),
      fc.record({ k: fc.constant('replace' as const) }),
    );
    let n = 0;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const file = join(dir, `j${n++}.jsonl`);
        const kept = fileJournal(file);
        for (const o of ops) {
          const size = sizeOf(file);
          if (o.k === 'entry') appendFileSync(file, utf8({ username: o.name }));
          else if (o.k === 'torn') {
            const b = utf8({ username: o.name });
            appendFileSync(file, b.subarray(0, o.cut % b.length));
          } else if (o.k === 'raw') appendFileSync(file, o.text);
          else if (o.k === 'edit' && size > 0) {
            // One byte changed (a digit becomes another, or any byte an x): by an editor (a new file
            // renamed in place: anywhere), or in place within the last 64 bytes (the reader's seal;
            // an edit in place further back keeps its size and tail, and is read at the next start).
            const b = readFileSync(file);
            const at = o.inPlace ? size - 1 - (o.at % Math.min(size, 64)) : o.at % size;
            b[at] = b[at]! >= 0x30 && b[at]! <= 0x38 ? b[at]! + 1 : 0x78;
            if (o.inPlace) writeFileSync(file, b);
            else {
              writeFileSync(`${file}.new`, b);
              renameSync(`${file}.new`, file);
            }
          } else if (o.k === 'cut' && size > 0) truncateSync(file, o.at % size);
          else if (o.k === 'replace') {
            writeFileSync(`${file}.new`, utf8({ username: 'replaced' }));
            renameSync(`${file}.new`, file);
          }
          const once = fileJournal(file);
          expect(kept.read()).toEqual(once.read());
          expect(kept.skipped?.()).toEqual(once.skipped?.());
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: a read ahead in chunks (a turn of the event loop each), changes meanwhile, equals a fresh read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-journal-ahead-'));
    const op = fc.oneof(
      fc.record({
        k: fc.constant('entries' as const),
        n: fc.integer({ min: 1, max: 6 }),
        name: fc.constantFrom('ann', 'zoë', '用户🎬'),
      }),
      fc.record({ k: fc.constant('torn' as const), cut: fc.nat() }),
      fc.record({
        k: fc.constant('raw' as const),
        text: fc.constantFrom('\n', '{}\n', 'null\n', 'x', '{"a":', '\xff\n'),
      }),
      fc.record({ k: fc.constant('cut' as const), at: fc.nat() }),
      fc.record({ k: fc.constant('replace' as const) }),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ op, ahead: fc.boolean(), during: fc.boolean() }), { maxLength: 15 }),
        fc.integer({ min: 1, max: 400 }),
        async (steps, chunkBytes) => {
          const file = join(dir, `a${n++}.jsonl`);
          const chunked = fileJournal(file, { chunkBytes });
          const apply = (o: (typeof steps)[number]['op']) => {
            const size = sizeOf(file);
            if (o.k === 'entries')
              for (let i = 0; i < o.n; i++) appendFileSync(file, utf8({ username: `${o.name}${i}` }));
            else if (o.k === 'torn') {
              const b = utf8({ username: 'torn' });
              appendFileSync(file, b.subarray(0, o.cut % b.length));
            } else if (o.k === 'raw') appendFileSync(file, o.text);
            else if (o.k === 'cut' && size > 0) truncateSync(file, o.at % size);
            else if (o.k === 'replace') {
              writeFileSync(`${file}.new`, utf8({ username: 'replaced' }));
              renameSync(`${file}.new`, file);
            }
          };
          for (const step of steps) {
            // A read ahead under way while the file changes (a turn in: it has begun), or after it.
            const ahead = step.ahead ? chunked.readAhead?.() : undefined;
            if (step.during) await new Promise<void>((r) => setImmediate(r));
            apply(step.op);
            await ahead;
            const once = fileJournal(file);
            expect(chunked.read()).toEqual(once.read());
            expect(chunked.skipped?.()).toEqual(once.skipped?.());
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('read(upTo) is the journal as it stood at the mark: entries written after it are left out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-journal-mark-'));
    const file = join(dir, 'journal.jsonl');
    const j = fileJournal(file, { chunkBytes: 50 });
    expect(j.mark?.()).toBe(0);
    for (const name of ['a', 'zoë', '用户']) j.append(entry({ username: name }));
    const m = j.mark!();
    await j.readAhead?.();
    j.append(entry({ username: 'later' }));
    appendFileSync(file, '{"torn":');
    expect(j.read(m).map((e) => e.username)).toEqual(['a', 'zoë', '用户']);
    expect(j.read().map((e) => e.username)).toEqual(['a', 'zoë', '用户', 'later']);
    expect(
      fileJournal(file)
        .read(m)
        .map((e) => e.username),
    ).toEqual(['a', 'zoë', '用户']);
  });
});
