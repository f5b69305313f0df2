import { Text } from 'ink';
import { useMemo } from 'react';
import { keyNamed, said } from '../../commands/keymap';
import { OPEN } from '../../domain/bulk';
import { counted, credits, fitWidth } from '../../domain/format';
import { leftToReview } from '../../services/changes/fresh-lines';
import { LOOKUP_PAGES_AT_START, unsentToMarkAgain } from '../../services/changes/recovery';
import { unsettledText } from '../../services/paste-lookup';
import type { MarkAgain, Recovered } from '../../store/changes/changes-slice';
import {
  type JobCounts,
  jobCounts,
  type MarkCounts,
  markTotal,
  noMarks,
  selectOfferCounts,
  selectOfferStaysMarked,
} from '../../store/selectors';
import { DialogFrame } from '../components/DialogFrame';
import { glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';
import { confirmDoes, droppedNote, useConfirmGuard } from '../use-confirm-guard';
import { useKeysNamed } from '../use-keys-named';

const OPS = {
  create: 'new line',
  trial: 'new trial line',
  extend: 'extend',
  upgrade: 'connections change',
  unsuspend: 'unsuspend',
  delete: 'delete',
} as const;

/** Rows listed at most; more are counted. */
const MAX_ROWS = 12;

/**
 * At start: changes the intent log still held (the app stopped before their outcome was known, or
 * a bulk job was interrupted), after checking them with the server, and what the user can do.
 */
export function ResumeDialog({ width, height }: { readonly width: number; readonly height: number }) {
  const recovery = useApp((s) => s.recovery);
  const markedAgain = useApp((s) => s.markedAgain);
  const staysMarked = useApp(selectOfferStaysMarked);
  // The offer counted once per change of it or its marks (not on every frame): the rows, the hints.
  const counts = useApp(selectOfferCounts);
  const unknown = (counts?.open ?? 0) > 0;
  // Offered exactly when the key works (its command's own rule), saying what it will do: the lines
  // not marked again it looks up again by why (the lookup at start did not reach, read or do them).
  const recheckHint = useApp((s) =>
    said(keyNamed(s, 'resume.recheck'), recheckText(unknown, counts?.lookUpAgain)),
  );
  const rows = useMemo(() => {
    const out: Row[] = [];
    recovery?.jobs.forEach((r, i) => {
      out.push(...offerRows(r, recovery.checking, markedAgain, counts?.jobs[i]));
    });
    return out;
  }, [recovery, markedAgain, counts]);
  // Two borders, the title and the hint; a list longer than the room ends in "… and N more". Too
  // small only when not even its first row (and that count) fits: the notes never make it so.
  const room0 = height - 4;
  const least = Math.min(rows.length, 2);
  const short = rows.length > room0 ? least - room0 : 0;
  const hidden =
    short > 0
      ? `Too small to show what was left open: the terminal needs ${short} more row${short === 1 ? '' : 's'}`
      : null;
  const guard = useConfirmGuard(hidden);
  // The keys its hint line names, only while they work (not under the help overlay or the palette).
  const k = useKeysNamed(['resume.yes', 'resume.no'] as const);
  if (!recovery) return null;
  // Enter resumes one job (the first with lines never sent); the others are offered again once its
  // results are closed (or at the next start).
  const first = recovery.jobs.find((r) => r.unsent > 0);
  const unsent = first?.unsent ?? 0;
  const later = recovery.jobs.filter((r) => r !== first && r.unsent > 0);
  // What Enter and Esc leave for later, under the rows (once the check has ended), then the
  // keys typed ahead: in the rows the list leaves over its first row, in that order; what does not
  // fit is dropped. Enter's is said only when Enter is offered (not while the dialog is too small).
  const notes = [
    ...(recovery.checking || !counts
      ? []
      : leftNotes(recovery.jobs, counts.jobs, later, {
          yes: unsent > 0 && !hidden ? k['resume.yes'] : null,
          no: k['resume.no'],
        })),
    droppedNote(guard),
  ]
    .filter((n): n is string => n !== null)
    .slice(0, hidden ? 0 : Math.max(0, room0 - least));
  const room = room0 - notes.length;
  const fits = Math.min(MAX_ROWS, rows.length <= room ? rows.length : room - 1);
  const footerHint = recovery.checking
    ? 'Checking with the server before anything else (nothing is re-sent)…'
    : [
        hidden ? `${glyph('fail')} ${hidden}` : '',
        unsent && !hidden
          ? said(
              k['resume.yes'],
              confirmDoes(
                guard,
                `resumes the ${unsent} line${unsent === 1 ? '' : 's'} never sent${later.length && first ? ` of job ${first.job.id.slice(0, 8)}` : ''}`,
              ),
            )
          : '',
        recheckHint ?? '',
        // What Esc leaves: the offer's lines marked now (never sent, or to review) stay marked, to be
        // done as the user likes; counted from the marks, not from what was marked again.
        said(
          k['resume.no'],
          staysMarked
            ? `closes (${counted(staysMarked, 'line')} stay${staysMarked === 1 ? 's' : ''} marked)`
            : 'closes',
        ),
      ]
        .filter(Boolean)
        .join(' · ');
  return (
    <DialogFrame
      width={width}
      border="ui.badge"
      title=" Changes left open when linedesk last stopped"
      hint={` ${footerHint}`}
    >
      {rows.slice(0, Math.max(0, fits)).map(([text, tone, key]) => (
        <Text key={key ?? text} color={tone ? color(tone) : undefined} wrap="truncate">
          {fitWidth(`  ${text}`, width - 2)}
        </Text>
      ))}
      {rows.length > fits && fits > 0 && (
        <Text color={color('ui.muted')}>{`  … and ${rows.length - fits} more`}</Text>
      )}
      {notes.map((n) => (
        <Text key={n} color={color('ui.muted')} wrap="truncate">
          {fitWidth(`  ${n}`, width - 2)}
        </Text>
      ))}
    </DialogFrame>
  );
}

/**
 * What Enter and Esc leave for later, said under the rows (the hint line is cut at the dialog's
 * width): the lines never sent of the jobs Enter does not resume (`later`: offered again once the
 * resumed job's results are closed), and those of the jobs with unknown outcomes Esc keeps for the
 * next start (Esc sets aside the lines never sent of the other jobs).
 * `keys`: the keys named, each only while it works (`useKeysNamed`; Enter's also only while it is
 * offered): a note whose key does not work now is left out, so no note names a key that would not act.
 */
function leftNotes(
  jobs: readonly Recovered[],
  counts: readonly JobCounts[],
  later: readonly Recovered[],
  keys: { readonly yes: string | null; readonly no: string | null },
): string[] {
  const lines = (rs: readonly Recovered[]) => rs.reduce((n, r) => n + r.unsent, 0);
  const are = (rs: readonly Recovered[]) => (lines(rs) === 1 ? 'is' : 'are');
  const out: string[] = [];
  if (keys.yes !== null && later.length)
    out.push(
      `${keys.yes} resumes one job: ${counted(lines(later), 'line')} never sent in ${counted(later.length, 'other job')} ${are(later)} offered again after it`,
    );
  const kept = jobs.filter((r, i) => r.unsent > 0 && (counts[i]?.open ?? 0) > 0);
  if (keys.no !== null && kept.length)
    out.push(
      `${keys.no} keeps ${kept.length === 1 ? 'the job' : `the ${kept.length} jobs`} with unknown outcomes: ${counted(lines(kept), 'line')} never sent ${are(kept)} offered again at the next start`,
    );
  return out;
}

/** A row's text, its tone, and its key where the text may repeat. */
type Row = [string, 'tone.error' | 'tone.success' | 'ui.muted' | undefined, string?];

/**
 * Where marking a line again stands, in words: one wording for each state, in the counts, on the
 * rows and in r's hint. "Not found" only when proven (the whole list was read); one the lookup did
 * not reach is "not looked up", one it could not read "not readable", one that may be a line whose id
 * or username did not read "not identified", one it failed for "lookup failed".
 */
const MARK_WORDS: Readonly<Record<MarkAgain, string>> = {
  marked: 'marked again',
  'not found': 'not found now',
  'not looked up': 'not looked up',
  'not readable': 'not readable',
  'not identified': 'not identified',
  'lookup failed': 'lookup failed',
  looking: 'being looked up',
};

/** Not marked again, and why: the states that are. */
const NOT_MARKED: readonly MarkAgain[] = [
  'not found',
  'not looked up',
  'not readable',
  'not identified',
  'lookup failed',
];

/**
 * Some lines by where marking them again stands (`c`), in MARK_WORDS: "3 not looked up, 1 not
 * readable"; the word alone when one state holds them all ("not looked up"; being looked up: "being
 * looked up, to be marked again").
 */
function markAgainWords(c: MarkCounts) {
  const held = (Object.keys(MARK_WORDS) as MarkAgain[]).filter((m) => c[m] > 0);
  if (held.length === 1)
    return held[0] === 'looking' ? 'being looked up, to be marked again' : MARK_WORDS[held[0]!];
  return held.map((m) => `${c[m]} ${MARK_WORDS[m]}`).join(', ');
}

/**
 * What the offer says of the lines left marked to review (changed since marked): "marked again" once
 * they all are (null: said in the counts); else where each stands (those not marked again, and why, on
 * their own rows, by name).
 */
function markedAgainText(c: MarkCounts): string | null {
  const n = markTotal(c);
  if (c.marked === n) return null;
  const them = n === 1 ? 'The line changed since marked' : `The ${n} lines changed since marked`;
  const named = NOT_MARKED.some((m) => c[m] > 0) ? ' (named below)' : '';
  return `${them}: ${markAgainWords(c)}${named}`;
}

/** What a check again does: the unknown outcomes checked, the lines not marked again looked up
 *  again (`again`: those, by why: not looked up, not readable, not identified, lookup failed). */
function recheckText(unknown: boolean, again: MarkCounts | undefined): string {
  const n = again ? markTotal(again) : 0;
  if (!again || !n) return 'checks the unknown ones again';
  const lines = `the ${n === 1 ? 'line' : `${n} lines`} (${markAgainWords(again)})`;
  return unknown ? `checks the unknown ones and looks up again ${lines}` : `looks up again ${lines}`;
}

/**
 * Why a line to be marked again is not, or null (marked, or being looked up): its state's words,
 * with what "not looked up", "not readable" and "not identified" mean (the paste lookup's words).
 */
function notMarkedText(m: MarkAgain | undefined): string | null {
  if (m === 'not looked up') return `${unsettledText('unreached', LOOKUP_PAGES_AT_START)}, not marked again`;
  if (m === 'not readable') return `${unsettledText('unreadable')}, not marked again`;
  if (m === 'not identified') return `${unsettledText('unidentified')}, not marked again`;
  if (m === 'not found' || m === 'lookup failed') return `${MARK_WORDS[m]}, not marked again`;
  return null;
}

/**
 * What the offer says of the lines never sent: where marking them again stands (null: all are marked
 * again); a problem when some are not.
 */
function unsentNotMarkedText(c: MarkCounts): { readonly text: string; readonly problem: boolean } | null {
  const n = markTotal(c);
  if (c.marked === n) return null;
  return {
    text: `The ${n === 1 ? 'line' : `${n} lines`} never sent: ${markAgainWords(c)}`,
    problem: NOT_MARKED.some((m) => c[m] > 0),
  };
}

/** The offer's rows for one job; its counts add up to the job's lines (exported for its test).
 *  `marks`: where marking again stands for its lines left marked to review; `c`: the job counted
 *  (`selectOfferCounts`, counted here when not given). */
export function offerRows(
  r: Recovered,
  checking: boolean,
  marks: ReadonlyMap<string, MarkAgain>,
  c: JobCounts = jobCounts(r.job, marks),
) {
  const { job } = r;
  const when = job.createdAt.slice(0, 16).replace('T', ' ');
  const out: Row[] = [];
  const single = job.lines.length === 1;
  if (!single) {
    const { open: unknown, skipped, cancelled } = c;
    const review = markTotal(c.review);
    const again = markedAgainText(c.review);
    out.push([
      `Bulk ${job.op} of ${job.lines.length} lines (started ${when} UTC, job ${job.id.slice(0, 8)}):`,
      undefined,
    ]);
    out.push([
      // Every line counted once: skipped ones (a trial, a line changed since it was marked, one left
      // to another job) and cancelled ones too, so the counts add up to the job's lines.
      `  ${c.done} done · ${c.failed} failed · ${unknown} ${checking && unknown ? 'checking' : 'unknown'} · ${r.unsent} never sent${skipped ? ` · ${skipped} skipped${review ? ` (${review === skipped ? '' : `${review} `}changed since marked${again ? '' : ': marked again'})` : ''}` : ''}${cancelled ? ` · ${cancelled} cancelled (they stay cancelled)` : ''}`,
      undefined,
      `${job.id}:counts`,
    ]);
    if (again) out.push([`    ${again}`, undefined, `${job.id}:again`]);
    const unsentNot = unsentNotMarkedText(c.unsent);
    if (unsentNot)
      out.push([`    ${unsentNot.text}`, unsentNot.problem ? 'tone.error' : undefined, `${job.id}:unsent`]);
  }
  for (const l of job.lines) {
    // Open at start, or settled since (checked with the server, or by the user): said with its outcome.
    const wasOpen = OPEN.has(l.state) || l.settledAfterUnknown !== undefined;
    // Named, so it can be found again: marks are not saved, and the job's dialog is gone. By its
    // username only: a row is cut at the dialog's width, and what changed comes after the name.
    if (!single && leftToReview(l)) {
      // Not marked again is said before what changed: a row is cut at the dialog's width.
      const not = notMarkedText(marks.get(l.id));
      out.push(
        not
          ? [`${OPS[job.op]} ${l.username}: ${not}; ${l.detail}`, 'tone.error']
          : [`${OPS[job.op]} ${l.username}: ${l.detail}`, 'ui.muted'],
      );
      continue;
    }
    const what = `${OPS[job.op]} ${l.username}${l.id.startsWith('new:') ? '' : ` (line ${l.id})`}`;
    // A single change has no counts: its line never sent (or left to review) is said here, on every
    // frame: while it is looked up, once marked again, and if it is not, why, as the bulk rows say it.
    if (single && (unsentToMarkAgain(l) || leftToReview(l))) {
      const m = marks.get(l.id) ?? 'looking';
      const not = notMarkedText(m);
      const now = not ?? markAgainWords({ ...noMarks(), [m]: 1 });
      // By its username, why first: a row is cut at the dialog's width.
      out.push([
        `${OPS[job.op]} ${l.username}: ${unsentToMarkAgain(l) ? 'never sent' : 'changed since marked'}, ${now}`,
        not ? 'tone.error' : 'ui.muted',
      ]);
      continue;
    }
    if (!single && !wasOpen) continue;
    if (checking && OPEN.has(l.state)) out.push([`${what}: outcome unknown, checking…`, 'ui.muted']);
    else if (l.state === 'done')
      out.push([
        `${what}: applied${l.deducedCredits !== undefined ? `, charged ${credits(l.deducedCredits)}` : l.charge === 'unknown' ? ', charged, amount unknown' : ''}`,
        'tone.success',
      ]);
    else if (l.state === 'failed') out.push([`${what}: not applied; nothing charged for it`, undefined]);
    else if (OPEN.has(l.state))
      out.push([
        `${what}: still unknown (${l.detail ?? 'the server could not say'}); look the line up before trying again`,
        'tone.error',
      ]);
  }
  return out;
}
