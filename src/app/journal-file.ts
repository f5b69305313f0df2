import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod';
import type { Journal, JournalEntry } from '../services/changes/journal';
import { toCsv } from '../services/changes/journal';

const money = z.number().finite().nullable().catch(null);
/**
 * One journal line as written; a line of another shape (`{}`, `null`, `42`, an edit by hand) is
 * skipped and named. What a reader needs is required (when, what, the outcome); the rest falls back.
 */
const Entry = z.object({
  opId: z.string().optional().catch(undefined),
  time: z.string().refine((t) => !Number.isNaN(Date.parse(t)), 'not a time'),
  target: z.string().catch(''),
  operation: z.enum(['create', 'trial', 'extend', 'upgrade', 'unsuspend', 'delete']),
  lineId: z.string().nullable().catch(null),
  username: z.string().nullable().catch(null),
  quotedCost: money,
  estimate: z.boolean().catch(false),
  deducedCredits: money,
  newBalance: money,
  charge: z.enum(['reply', 'balance', 'share', 'unknown']).optional().catch(undefined),
  outcome: z.enum(['applied', 'rejected', 'unknown', 'not applied', 'not sent']),
  detail: z.string().optional().catch(undefined),
  bouquets: z.array(z.number().int()).optional().catch(undefined),
  service: z.string().optional().catch(undefined),
  months: z.number().int().optional().catch(undefined),
  connectionsBefore: z.number().int().optional().catch(undefined),
  connectionsAfter: z.number().int().optional().catch(undefined),
  expiryBefore: z.string().optional().catch(undefined),
  expiryAfter: z.string().optional().catch(undefined),
});

/** Drops the keys a fallback left undefined, so an entry reads back as it was written. */
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * The journal as JSONL in the data directory, appended (one line per change) as it happens, so a
 * crash loses nothing already written. A line that is not an entry (torn by a crash, or valid JSON of
 * another shape) is skipped when reading and named in `skipped()`, never fatal.
 */
export function fileJournal(file: string): Journal {
  let skipped: string[] = [];
  const read = (): JournalEntry[] => {
    skipped = [];
    if (!existsSync(file)) return [];
    const out: JournalEntry[] = [];
    let lines: string[];
    try {
      lines = readFileSync(file, 'utf8').split('\n');
    } catch (err) {
      // A journal that cannot be read (permissions, a directory in its place) is named, never fatal.
      skipped = [
        `${file} could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): no entry shown`,
      ];
      return [];
    }
    const bad: string[] = [];
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        // A torn last line after a crash is expected; one inside the file is damage.
        if (i < lines.length - 1 && lines.slice(i + 1).some((l) => l.trim()))
          bad.push(`line ${i + 1}: not JSON`);
        return;
      }
      const parsed = Entry.safeParse(json);
      if (parsed.success) out.push(defined(parsed.data) as JournalEntry);
      else {
        const issue = parsed.error.issues[0];
        bad.push(
          `line ${i + 1}: ${issue?.path.length ? `${issue.path.join('.')}: ` : ''}${issue?.message ?? 'not an entry'}`,
        );
      }
    });
    if (bad.length)
      skipped = [
        `${basename(file)}: ${bad.length} ${bad.length === 1 ? 'line' : 'lines'} skipped, not journal entries (${bad.slice(0, 3).join('; ')}${bad.length > 3 ? '; …' : ''})`,
      ];
    return out;
  };
  return {
    append(entry) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    },
    read,
    skipped: () => skipped,
    exportCsv(entries = read(), dir = join(dirname(file), 'exports')) {
      // Beside the other exports (messages, notes), not among the data files.
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const target = join(dir, `journal-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`);
      writeFileSync(target, toCsv(entries), { mode: 0o600 });
      return target;
    },
  };
}
