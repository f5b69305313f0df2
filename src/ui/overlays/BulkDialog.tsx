import { Text, useIsScreenReaderEnabled } from 'ink';
import { Fragment } from 'react';
import { bulkRefusedText } from '../../commands/areas/bulk';
import { joined, keyNamed, said } from '../../commands/keymap';
import {
  affordability,
  type BulkJob,
  type BulkLine,
  deletedPaidTimeText,
  pendingCounts,
  SPENDS,
} from '../../domain/bulk';
import {
  absoluteText,
  cellWidth,
  counted,
  countText,
  credits,
  creditsText,
  fitWidth,
} from '../../domain/format';
import { windowOfRows } from '../../domain/scroll';
import { layoutColumns } from '../../present/lines-columns';
import { progressStep, rowSentence, spoken, wrappedRows } from '../../present/speech';
import { rowText } from '../../present/tables';
import { wrapWords } from '../../present/wrap';
import { type BulkState, bulkBalance, bulkRefusal } from '../../store/bulk-slice';
import { DialogFrame } from '../components/DialogFrame';
import { TableRow } from '../components/SpokenRow';
import { glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color, type Token } from '../theme';
import { confirmDoes, droppedNote, useConfirmGuard } from '../use-confirm-guard';
import { useKeysNamed } from '../use-keys-named';
import { usePageRows } from '../use-page-rows';

const TITLES = {
  create: 'Create',
  trial: 'Create trial',
  extend: 'Extend',
  upgrade: 'Set connections of',
  unsuspend: 'Unsuspend',
  delete: 'Delete',
} as const;
const STATE_TONES: Record<BulkLine['state'], Token | undefined> = {
  pending: 'ui.muted',
  sending: 'ui.accent',
  done: 'tone.success',
  failed: 'tone.error',
  unknown: 'ui.badge',
  skipped: 'ui.muted',
  cancelled: 'ui.muted',
};
const at = (ms: number | null | undefined) => (ms == null ? '—' : absoluteText({ raw: '', ms }).slice(0, 10));

/** About the longest a line's spoken row gets: "pending, Username: (30), Change: DATE to DATE, Cost: 12, …". */
const SPOKEN_LINE_CELLS = 100;

/** Preview (per line: what changes and its cost, the total against the balance), progress, results. */
export function BulkDialog({ width, height }: { readonly width: number; readonly height: number }) {
  const b = useApp((s) => s.bulk);
  return b ? <BulkBody b={b} width={width} height={height} /> : null;
}

function BulkBody({
  b,
  width,
  height,
}: {
  readonly b: BulkState;
  readonly width: number;
  readonly height: number;
}) {
  const isSpoken = useIsScreenReaderEnabled();
  // Named only while they run: with nothing failed or unknown, "f retries…" would offer a refused key.
  const retryHint = useApp((s) =>
    said(keyNamed(s, 'bulk.retry'), 'retries the failed and cancelled ones (quoted again first)'),
  );
  const recheckHint = useApp((s) => said(keyNamed(s, 'bulk.recheck'), 'checks the unknown ones'));
  // The keys the hint lines name, only while they work (not under the help overlay or the palette).
  const k = useKeysNamed([
    'bulk.close',
    'bulk.start',
    'bulk.cancel',
    'bulk.export',
    'bulk.up',
    'bulk.down',
    'bulk.pageUp',
    'bulk.pageDown',
  ] as const);
  // What the preview judges against, and what the job's end compares with: the balance only while
  // it is the service's word (bulkBalance; the header says the same balance stale otherwise).
  const balance = useApp(bulkBalance);
  const balanceRead = useApp((s) => s.account.status);
  const balanceError = useApp((s) => (s.account.status === 'error' ? s.account.error : null));
  // Named once: when the start is refused for the balance not being known, the refusal names the key.
  const readAgain = useApp((s) =>
    s.bulk && bulkRefusal(s.bulk, bulkBalance(s))?.code === 'balanceUnknown'
      ? null
      : said(keyNamed(s, 'bulk.readBalance'), 'reads it again'),
  );
  const refusedText = useApp(bulkRefusedText);
  const scroll = useApp((s) => s.scroll.bulk);
  const { job } = b;
  const count = job.lines.length;
  const spends = SPENDS.has(job.op);
  // A job that spends nothing (a delete, an unsuspend) says nothing of the balance or affordability.
  const afford = spends && balance !== undefined ? affordability(job.lines, balance) : null;
  const param =
    job.op === 'extend'
      ? ` by ‹ ${job.months} month${job.months === 1 ? '' : 's'} ›`
      : job.op === 'upgrade'
        ? ` to ‹ ${job.connections} ›`
        : '';
  /** What the dialog says above its lines; in the preview, what must show whole to start it (the
   *  total, the balance, what to type). */
  const head: string[] = [];
  /** Where the preview's total comes from, said after it (with the balance known or not). */
  const costNote =
    job.op === 'extend'
      ? ' (estimate from package prices)'
      : job.op === 'upgrade'
        ? ' (quoted by the server)'
        : '';
  /** Once started, the progress bar (its counts are said beside it too): kept only while it fits. */
  let bar: string | null = null;
  if (b.phase === 'preview') {
    // Said only when it is so: "0 of the 34 … are not on the page" said nothing.
    if (b.hidden > 0)
      head.push(
        `${countText(b.hidden)} of the ${counted(count, 'marked line')} ${b.hidden === 1 ? 'is' : 'are'} not on the page in view (other pages, or hidden by the filter or search).`,
      );
    if (afford) {
      // With "only the affordable ones" on, the total is theirs: what the job will cost.
      const total = b.onlyAffordable ? afford.spent : afford.total;
      const cost = `Total ${credits(total)}${costNote}`;
      const funds = `balance ${creditsText(balance!)} · ${afford.affordable.size} of ${afford.considered} affordable${b.onlyAffordable ? ' · ONLY THE AFFORDABLE ONES' : ''}`;
      // The cost and the balance are never cut: on one line when it fits, else each on its own rows.
      if (cellWidth(` ${cost} · ${funds}`) <= width - 2) head.push(`${cost} · ${funds}`);
      else head.push(cost, funds);
    } else if (spends) {
      // The balance is not known (being read, or its read failed): the total of every line, said
      // as such, and what starting now means. "Only the affordable ones" picks none until it is known.
      const { costSum, costUnknown } = pendingCounts(job.lines);
      const all = `${b.onlyAffordable ? 'All the lines: total' : 'Total'} ${costUnknown ? 'not known yet' : credits(costSum)}${costNote}`;
      const state =
        balanceRead === 'loading'
          ? 'reading the balance…'
          : balanceError !== null
            ? `The balance could not be read: ${balanceError}.`
            : 'The balance is not known yet.';
      const why = [state, balanceRead === 'loading' ? null : readAgain].filter(Boolean).join(' ');
      if (balanceRead === 'loading' && cellWidth(` ${all} · ${why}`) <= width - 2)
        head.push(`${all} · ${why}`);
      else head.push(all, why);
      head.push(
        b.onlyAffordable
          ? 'ONLY THE AFFORDABLE ONES: none is picked until the balance is known.'
          : 'Started now, the balance is unknown: the service refuses the lines it does not cover (nothing is charged for those).',
      );
    }
    if (b.quoting) head.push('Asking the server for each line’s cost…');
    if (job.op === 'delete') {
      // "Total 0 credits" says nothing of what a delete costs: the paid time it throws away, said whole.
      const lost = deletedPaidTimeText(job.lines, Date.parse(job.createdAt));
      if (lost) head.push(lost);
      head.push(`Deletes permanently. Type the number of lines to confirm: ${b.typed}▏`);
    }
  } else if (isSpoken && b.phase === 'running') {
    // A screen reader hears progress in steps of 10%, not a bar and counters redrawn at each line.
    const p = b.progress;
    const total = Math.max(1, p.done + p.failed + p.unknown + p.remaining);
    head.push(`Progress: ${progressStep(p.done + p.failed, total)}% of ${counted(total, 'line')}.`);
    if (b.cancelling) head.push('Cancelling: no new requests; those in flight finish.');
    if (b.paused) head.push(b.paused);
  } else {
    const p = b.progress;
    const total = Math.max(1, p.done + p.failed + p.unknown + p.remaining);
    const barWidth = Math.max(10, width - 40);
    const filled = Math.round(((p.done + p.failed) / total) * barWidth);
    if (!isSpoken)
      bar = `[${glyph('barFull').repeat(filled)}${glyph('barEmpty').repeat(barWidth - filled)}] ${p.done + p.failed}/${total}`;
    head.push(
      `done ${p.done} · failed ${p.failed} · unknown ${p.unknown} · remaining ${p.remaining} · skipped ${p.skipped}${p.cancelled ? ` · cancelled ${p.cancelled}` : ''} · ${credits(p.credits)} spent${p.chargeUnknown ? ` (+${p.chargeUnknown} charged, amount unknown)` : ''} · ${p.ratePerSec.toFixed(1)}/s${p.etaSec !== null && b.phase === 'running' ? ` · ~${Math.ceil(p.etaSec)} s left` : ''}`,
    );
    if (b.cancelling) head.push('Cancelling: no new requests; those in flight finish.');
    if (b.paused) head.push(b.paused);
    const besides = movedBesides(job, balance, p.credits);
    if (b.phase === 'done' && besides)
      head.push(
        `The balance moved ${credits(besides)} besides what this job proved it spent (charges of unknown amount, or another client).`,
      );
    // Esc is said once, on the dialog's last row.
    if (b.phase === 'done')
      head.push(`Finished. ${joined([retryHint, recheckHint, said(k['bulk.export'], 'exports')])}`);
  }
  const blocker = b.phase === 'preview' ? refusedText : null;
  // The title, what the preview says above the lines and at least one line, or it cannot start.
  // What the dialog says above its lines is read whole, on as many rows as it takes; the rows that
  // must show whole to start (what to type, the total and the balance) wrap too, counted in the
  // rows the dialog needs (at 60 columns they take two rows each).
  const wrapHead = (rows: readonly string[]) =>
    isSpoken ? rows : rows.flatMap((h) => wrapWords(h, width - 3));
  // Read aloud, a row is its whole sentence, which wraps (Ink draws the aria-label).
  const rowsOf = (rows: readonly string[]) =>
    isSpoken ? rows.reduce((n, h) => n + wrappedRows(spoken(h), width - 2), 0) : wrapHead(rows).length;
  const short = b.phase === 'preview' ? rowsOf(head) + 5 - height : 0;
  const hidden =
    short > 0
      ? `Too small to show ${spends ? 'the total and the balance' : job.op === 'delete' ? 'what to type to confirm' : 'what it does'}: the terminal needs ${short} more row${short === 1 ? '' : 's'}`
      : null;
  const guard = useConfirmGuard(hidden);
  const note = b.phase === 'preview' && !hidden ? droppedNote(guard) : null;
  if (note) head.push(note);
  // Once started there is nothing to confirm, but the frame is never taller than the terminal (at
  // 60×14 a done view's counts, the balance moved besides it and what to do next take most rows):
  // the window of lines shrinks first, to none; then the bar goes; a head still too tall is not
  // drawn, and how many rows it needs is said instead (its keys still work).
  const started = b.phase !== 'preview';
  if (bar !== null && rowsOf([bar, ...head]) + 4 <= height) head.unshift(bar);
  const over = started ? rowsOf(head) + 4 - height : 0;
  const why =
    hidden ??
    (over > 0
      ? `Too small to show the job’s counts: the terminal needs ${over} more row${over === 1 ? '' : 's'}`
      : null);
  // Read aloud, a row is its whole sentence, which wraps (Ink draws the aria-label): the window
  // counts the rows they take, so the frame stays within the terminal and the rows below the
  // lines (where they are, how to start) are not cut off.
  // What the dialog says above its lines (in the preview, how many marked lines are not on the page;
  // once started, its counts, rate and time left, the balance moved besides it, a pause) is read
  // whole, on as many rows as it takes (wrapHead).
  const headText = over > 0 ? [] : wrapHead(head);
  const headRows = over > 0 ? 0 : rowsOf(head);
  const perLine = isSpoken ? wrappedRows('x'.repeat(SPOKEN_LINE_CELLS), width - 2) : 1;
  const room = Math.max(1, height - headRows - 5);
  // A screen reader hears the lines' outcomes once the job ends, not each line's state as it moves;
  // once started, a head that leaves no row for a line shows none (nor where they are).
  const quiet = (isSpoken && b.phase === 'running') || (started && (over > 0 || height - headRows - 5 < 1));
  // Columns as data, with what this job and its phase say about each line.
  const notAffordable = (l: BulkLine) =>
    Boolean(afford && b.phase === 'preview' && l.state === 'pending' && !afford.affordable.has(l.id));
  const detailOf = (l: BulkLine) => (notAffordable(l) ? 'not affordable' : (l.detail ?? ''));
  const lay = (items: readonly BulkLine[]) =>
    layoutColumns(
      [
        {
          id: 'username',
          header: 'USERNAME',
          width: { min: 12, flex: 2 },
          cell: (l: BulkLine) => l.username,
        },
        {
          id: 'change',
          header: 'CHANGE',
          width: { min: 12, flex: 2 },
          cell: (l: BulkLine) => change(l, job.op),
        },
        {
          id: 'cost',
          header: 'COST',
          width: 6,
          align: 'right',
          cell: (l: BulkLine) => (l.cost === null ? '?' : creditsText(l.cost)),
        },
        // A detail wider than its column is said whole on the rows below its line (spilled).
        {
          id: 'detail',
          header: 'NOTE',
          width: { min: 8, flex: 1 },
          cell: (l: BulkLine) => (spilled.has(l.id) ? '' : detailOf(l)),
        },
      ],
      width - 13,
      1,
      { items, now: 0 },
    );
  // A line's reason (why it was not sent, what to do) is read whole: one that does not fit its
  // column goes on rows of its own below the line, as many as it takes (at most the rows there are,
  // below the line's own).
  // By id: a job's lines may be new objects at each read of them.
  const spilled = new Map<string, string[]>();
  const under = Math.max(1, width - 13);
  const spill = (l: BulkLine, detailWidth: number) => {
    const d = detailOf(l);
    // A line and its reason's rows never take more than the room (one row: cut in its column), or
    // the frame would be taller than the terminal and lose its last rows.
    if (isSpoken || cellWidth(d) <= detailWidth || room < 2) spilled.delete(l.id);
    else spilled.set(l.id, wrapWords(d, under).slice(0, room - 1));
  };
  const heightOf = (l: BulkLine) => (isSpoken ? perLine : 1 + (spilled.get(l.id)?.length ?? 0));
  // The widest the detail column can be (the others at their least); the lines in view may leave it
  // narrower, so the window is measured again with their columns and ends sooner if it must. Only
  // the lines the window asks about are measured (a screenful at each end, not 100,000 lines a frame).
  const measured = new Set<number>();
  const heightAt = (i: number) => {
    const l = job.lines[i]!;
    if (!measured.has(i)) {
      measured.add(i);
      if (l.detail || notAffordable(l)) spill(l, width - 13 - 33);
    }
    return heightOf(l);
  };
  let win = windowOfRows(job.lines.length, room, scroll, heightAt);
  const laid = lay(job.lines.slice(win.start, win.end));
  const detailWidth = () => laid.find((c) => c.column.id === 'detail')?.width ?? 0;
  for (const l of job.lines.slice(win.start, win.end)) spill(l, detailWidth());
  let used = 0;
  let end = win.start;
  while (end < win.end && (end === win.start || used + heightOf(job.lines[end]!) <= room))
    used += heightOf(job.lines[end++]!);
  // The columns stay as laid out for the longer window: a detail that fitted them still does.
  if (end < win.end) {
    let start = win.start;
    // Scrolled to the end (the offset held where the last lines filled the window as measured at the
    // widest detail column): the window still ends at the last line, starting as late as its rows
    // need, or the last lines (taller in the columns as laid out) could never be scrolled into view.
    if (win.end === job.lines.length && scroll > win.start) {
      end = win.end;
      start = end;
      for (used = 0; start > win.start && (start === end || used + heightOf(job.lines[start - 1]!) <= room); )
        used += heightOf(job.lines[--start]!);
    }
    win = { start, end, position: `${start + 1}–${end} of ${job.lines.length}` };
  }
  const shown = hidden || quiet ? [] : job.lines.slice(win.start, win.end);
  // How many lines are in view: the scroll keys are offered only when some are not (commands/areas/bulk.ts).
  const inView = hidden || quiet ? 0 : win.end - win.start;
  // The note names the scroll keys: drawn on the frames the footer offers them (use-page-rows.ts).
  const isCounted = usePageRows('bulk', inView);
  const footerHint = ` ${
    b.phase === 'preview'
      ? hidden
        ? joined([said(k['bulk.close'], 'closes')])
        : blocker
          ? joined([`${glyph('fail')} ${blocker}`, said(k['bulk.close'], 'closes')])
          : joined([
              said(k['bulk.start'], confirmDoes(guard, 'starts (each line at most once)')),
              said(k['bulk.close'], 'closes'),
            ])
      : b.phase === 'running'
        ? joined([said(k['bulk.cancel'], 'cancels (requests in flight finish)')])
        : joined([said(k['bulk.close'], 'closes')])
  }`;
  return (
    <DialogFrame
      width={width}
      border={job.op === 'delete' ? 'ui.danger' : 'ui.accent'}
      title={` ${TITLES[job.op]} ${count} marked line${count === 1 ? '' : 's'}${param}`}
      hint={footerHint}
      refused={Boolean(blocker)}
      why={why}
    >
      {(hidden ? [] : headText).map((h, row) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows above the lines are keyed by their place
        <Text key={row} wrap="truncate" aria-label={spoken(h)}>
          {fitWidth(` ${h}`, width - 2)}
        </Text>
      ))}
      {shown.map((l) => (
        <Fragment key={l.id}>
          <TableRow
            wrap="truncate"
            say={() =>
              `${l.state}, ${rowSentence(
                laid.map((c) => c.column),
                l,
              )}`
            }
          >
            <Text color={color(STATE_TONES[l.state] ?? 'ui.muted')}>{fitWidth(` ${l.state}`, 10)}</Text>
            {rowText(laid, l)}
          </TableRow>
          {(spilled.get(l.id) ?? []).map((piece, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a reason's rows are keyed by their place in it
            <Text key={row} wrap="truncate">
              {fitWidth(`${' '.repeat(11)}${piece}`, width - 2)}
            </Text>
          ))}
        </Fragment>
      ))}
      {win.position &&
        shown.length > 0 &&
        isCounted &&
        k['bulk.up'] &&
        k['bulk.down'] &&
        k['bulk.pageUp'] &&
        k['bulk.pageDown'] && (
          <Text
            color={color('ui.muted')}
          >{`  lines ${win.position} (${k['bulk.up']}/${k['bulk.down']} ${k['bulk.pageUp']}/${k['bulk.pageDown']} scroll)`}</Text>
        )}
    </DialogFrame>
  );
}

function change(l: BulkLine, op: string): string {
  // A skipped line gets no change: its reason is in the detail column.
  if (l.state === 'skipped') return '—';
  if (op === 'extend') return `${at(l.before.expMs)} → ${at(l.after.expMs)}`;
  if (op === 'upgrade')
    return `${l.before.connections} → ${l.after.connections ?? l.before.connections} connections`;
  if (op === 'unsuspend') return l.before.enabled ? 'already enabled' : 'suspended → enabled';
  return 'deleted';
}

/** How far the balance moved since the job began beyond the charges it proved, or 0 when unknown. */
function movedBesides(job: BulkJob, balance: number | undefined, proven: number): number {
  if (job.balanceBefore == null || balance === undefined) return 0;
  return Math.max(0, job.balanceBefore - balance - proven);
}
