import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Journal, JournalEntry } from '../store/journal';
import { toCsv } from '../store/journal';

/**
 * The journal as JSONL in the data directory, appended (one line per change) as it happens, so a
 * crash loses nothing already written. A malformed line is skipped when reading, never fatal.
 */
export function fileJournal(file: string): Journal {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const read = (): JournalEntry[] => {
    if (!existsSync(file)) return [];
    const out: JournalEntry[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as JournalEntry);
      } catch {
        // a torn last line after a crash: skip it
      }
    }
    return out;
  };
  return {
    append(entry) {
      appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    },
    read,
    exportCsv() {
      const target = join(dirname(file), `journal-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`);
      writeFileSync(target, toCsv(read()), { mode: 0o600 });
      return target;
    },
  };
}
