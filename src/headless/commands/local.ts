import { join } from 'node:path';
import { fileJournal } from '../../app/journal-file';
import { collapse, type JournalEntry, toCsv } from '../../store/journal';
import { JOURNAL_COLUMNS } from '../../ui/tables';
import { completionScript } from '../completion';
import { EXIT, usageFailure } from '../failure';
import { tableText } from '../format';
import type { Ctx } from '../session';

/** `--since 2026-11-01` (a day, UTC) or a full time; null when it is neither. */
export function parseSince(text: string): number | null {
  const t = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) {
    const ms = Date.parse(`${t}T00:00:00Z`);
    return Number.isNaN(ms) ? null : ms;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(t)) return null;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : ms;
}

/** The journal on this machine (no service is asked): one entry per operation, its final outcome. */
export async function journalCommand(ctx: Ctx): Promise<number> {
  const { out, run } = ctx;
  let since: number | null = null;
  if (run.values.since !== undefined) {
    since = parseSince(String(run.values.since));
    if (since === null) {
      const f = usageFailure('--since takes a day (2026-11-01) or a time (2026-11-01T08:00:00Z)', ['since']);
      out.fail(f);
      return f.exit;
    }
  }
  const journal = fileJournal(join(ctx.dirs.data, 'journal.jsonl'));
  const all = collapse(journal.read());
  for (const problem of journal.skipped?.() ?? []) out.message(`linedesk: ${problem}`, 'yellow');
  const entries: JournalEntry[] = since === null ? all : all.filter((e) => Date.parse(e.time) >= since!);
  if (run.format === 'json') await out.data(`${JSON.stringify({ entries }, null, 2)}\n`);
  else if (run.format === 'csv') await out.data(toCsv(entries));
  else if (!entries.length) out.message(since === null ? 'The journal is empty.' : 'No entries since then.');
  else await out.data(tableText(out, JOURNAL_COLUMNS, entries, ctx.now()));
  return EXIT.done;
}

export async function completionCommand(ctx: Ctx): Promise<number> {
  await ctx.out.data(completionScript(ctx.run.args[0] as 'bash' | 'zsh' | 'fish'));
  return EXIT.done;
}
