import { Text, useIsScreenReaderEnabled } from 'ink';
import { joined, said } from '../../commands/keymap';
import { extendedExpiry, newLineExpiry } from '../../domain/estimate';
import { absoluteText, cellWidth, credits, creditsText, fitWidth } from '../../domain/format';
import { type BalanceShown, balanceNowText, balanceToJudge, staleText } from '../../present/balance';
import { spoken } from '../../present/speech';
import { wrapWords } from '../../present/wrap';
import { type ActionState, actionBlocker, SPENDS } from '../../store/action-slice';
import { isUnjudged, selectBalanceShown } from '../../store/selectors';
import { loaded } from '../../store/types';
import { DialogFrame } from '../components/DialogFrame';
import { glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';
import { confirmDoes, droppedNote, useConfirmGuard } from '../use-confirm-guard';
import { useKeysNamed } from '../use-keys-named';

const TITLES = {
  create: 'New line',
  trial: 'New trial line',
  extend: 'Extend',
  upgrade: 'Change connections of',
  unsuspend: 'Unsuspend',
  delete: 'Delete',
} as const;

const at = (ms: number) => absoluteText({ raw: '', ms });
/** The dialog's own rows besides its content: two borders, the title, the hint line. */
const FRAME_ROWS = 4;
/** Label column and margins: a value has the width less this. */
const LABEL_COLS = 20;

/**
 * The confirm dialog of every change: what changes, what it costs, the balance now and after. When
 * the body is too short, the rows that are not needed to decide (expiry, bouquets…) go first; when
 * even the line, its change, the cost and the balance cannot all be shown, it cannot be confirmed
 * and says so (the key gate, keys/confirm-gate.ts, holds its Enter).
 */
export function ActionDialog({ width, height }: { readonly width: number; readonly height: number }) {
  const a = useApp((s) => s.action);
  // The balance as the header shows it: a stale one is said stale, with since when, never "now".
  // A stale one judges nothing (the key's refusal, the confirm and the key gate ask the same rule,
  // action-slice.ts `actionBlocker`); a line whose earlier change turned out open while the dialog is
  // up: the service's rule says so.
  const balanceShown = useApp(selectBalanceShown);
  const blocker = useApp(actionBlocker);
  // Read aloud, a row is its whole sentence (Ink wraps the aria-label): the message stays one row.
  const rowWidth = useIsScreenReaderEnabled() ? Number.POSITIVE_INFINITY : width - LABEL_COLS;
  const all = (
    a ? (a.phase === 'review' ? review(a, balanceShown, rowWidth) : outcome(a, rowWidth)) : []
  ).map(toRow);
  const title = a ? ` ${TITLES[a.op]} ${a.line?.username ?? ''}` : '';
  const fit = a?.phase === 'review' ? fitRows(all, title, width, height) : { rows: all, hidden: null };
  const guard = useConfirmGuard(fit.hidden);
  // Each key the hint line names, only while it works (not under the help overlay or the palette).
  const k = useKeysNamed([
    'action.cancel',
    'action.confirm',
    'action.decrease',
    'action.increase',
    'action.recheck',
    'action.copy',
  ] as const);
  if (!a) return null;
  const note = a.phase === 'review' && !fit.hidden ? droppedNote(guard) : null;
  const footerHint =
    a.phase === 'review'
      ? fit.hidden
        ? joined([said(k['action.cancel'], 'back')])
        : blocker
          ? joined([`${glyph('fail')} ${blocker}`, said(k['action.cancel'], 'back')])
          : joined([
              said(k['action.confirm'], confirmDoes(guard, 'confirms (one request)')),
              said(k['action.cancel'], 'back'),
              k['action.decrease'] && k['action.increase']
                ? `${k['action.decrease']}/${k['action.increase']} adjust`
                : null,
            ])
      : a.phase === 'sending' || a.phase === 'checking'
        ? 'Waiting for the server… (nothing is sent twice)'
        : a.phase === 'unknown'
          ? joined([said(k['action.recheck'], 'checks the server again'), 'nothing is re-sent by itself'])
          : a.phase === 'done' && a.result?.line && (a.op === 'create' || a.op === 'trial')
            ? joined([
                said(k['action.copy'], 'copies username and password'),
                said(k['action.cancel'], 'closes'),
              ])
            : joined([said(k['action.cancel'], 'closes')]);
  const shown = note && fit.rows.length + FRAME_ROWS < height ? [...fit.rows, { k: '', v: note }] : fit.rows;
  return (
    <DialogFrame
      width={width}
      border={a.op === 'delete' ? 'ui.danger' : 'ui.accent'}
      title={title}
      hint={` ${footerHint}`}
      refused={Boolean(blocker) && a.phase === 'review'}
      why={a.phase === 'review' ? fit.hidden : null}
    >
      {shown.map(({ k, v, tone }, slot) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are keyed by their slot on screen
        <Text key={slot} wrap="truncate" aria-label={`${k}: ${spoken(v)}`}>
          <Text color={color('ui.muted')}>{fitWidth(`  ${k}`, 18)}</Text>
          <Text color={tone ? color(tone) : undefined}>{fitWidth(v, Math.max(0, width - LABEL_COLS))}</Text>
        </Text>
      ))}
    </DialogFrame>
  );
}

type Cells = [string, string, ('tone.error' | 'tone.success' | 'tone.warning' | 'ui.badge')?];

/** The rows needed to decide, by label: what is changed, what it costs, the balance before and after. */
const MUST = new Set([
  'Duration',
  'Connections',
  'Package',
  'Username',
  'Change',
  'Warning',
  'Type username',
  'Cost',
  'Balance',
]);
const toRow = ([k, v, tone]: Cells): Row => ({ k, v, tone, must: MUST.has(k) });

interface Row {
  readonly k: string;
  readonly v: string;
  readonly tone?: 'tone.error' | 'tone.success' | 'tone.warning' | 'ui.badge';
  /** Needed to decide: the line, its change, the cost, the balance. Shown whole or not confirmable. */
  readonly must?: boolean;
}

/** The rows that fit `height`, the optional ones dropped first; `hidden` says what cannot be shown. */
function fitRows(
  rows: readonly Row[],
  title: string,
  width: number,
  height: number,
): { rows: readonly Row[]; hidden: string | null } {
  const valueWidth = Math.max(0, width - LABEL_COLS);
  const narrow = cellWidth(title) > width - 2 || rows.some((r) => r.must && cellWidth(r.v) > valueWidth);
  if (narrow)
    return { rows: [], hidden: 'Too narrow to show the line, its cost and the balance: widen the terminal' };
  if (rows.length + FRAME_ROWS <= height) return { rows, hidden: null };
  const must = rows.filter((r) => r.must);
  if (must.length + FRAME_ROWS <= height) return { rows: must, hidden: null };
  const short = must.length + FRAME_ROWS - height;
  return {
    rows: [],
    hidden: `Too small to show the cost and the balance: the terminal needs ${short} more row${short === 1 ? '' : 's'}`,
  };
}

function review(a: ActionState, shown: BalanceShown | undefined, valueWidth: number): Cells[] {
  // What the change is judged against: the balance while it is the service's word, never a stale one
  // (the one rule, as the key's refusal and the confirm ask it: action-slice.ts `actionBlocker`).
  const balance = balanceToJudge(shown);
  const now = Date.now();
  const rows: Cells[] = [];
  const body = a.body as Record<string, unknown> | null;
  if (a.op === 'create' || a.op === 'trial') {
    rows.push(['Package', a.pkg?.package_name ?? '?']);
    if (a.op === 'create') rows.push(['Connections', String(body?.connections ?? 1)]);
    rows.push(['Username', String(body?.username ?? '')]);
    rows.push(['Password', body?.password ? 'as typed' : 'random (shown after)']);
    if (body?.label) rows.push(['Label', String(body.label)]);
    rows.push(['Bouquets', String((body?.bouquets as number[] | undefined)?.length ?? 0)]);
    if (a.pkg) rows.push(['Expires', `${at(newLineExpiry(a.pkg, now))} (from now)`]);
    if (a.pkg && balance !== undefined && balance < a.pkg.min_balance) {
      rows.push([
        'Note',
        `the package asks for a minimum balance of ${creditsText(a.pkg.min_balance)}`,
        'ui.badge',
      ]);
    }
  }
  if (a.op === 'extend' && a.line) {
    rows.push(['Duration', `‹ ${a.months} month${a.months === 1 ? '' : 's'} ›`]);
    rows.push([
      'Expiry',
      // An expiry we could not read is not counted from today: the new one is unknown too.
      a.line.exp_date && a.line.exp_date.ms === null
        ? `${a.line.exp_date.raw} + ${a.months} month${a.months === 1 ? '' : 's'} (the server's date is not understood)`
        : `${absoluteText(a.line.exp_date)} → ${at(extendedExpiry(a.line.exp_date?.ms ?? null, a.months, now))}`,
    ]);
  }
  if (a.op === 'upgrade' && a.line)
    rows.push(['Connections', `${a.line.connections} → ‹ ${a.connections} ›`]);
  if (a.op === 'unsuspend') rows.push(['Change', 'the line becomes enabled; no credits']);
  if (a.op === 'delete') {
    rows.push(['Warning', 'the line is deleted permanently', 'tone.error']);
    rows.push(['Type username', `${a.typed}▏`]);
  }
  if (SPENDS.has(a.op)) {
    const cost = loaded(a.quote)?.cost;
    const costText =
      a.quote.status === 'ready'
        ? `${credits(cost!)} ${a.estimate ? '(estimate from package prices)' : '(quoted by the server)'}`
        : a.quote.status === 'error'
          ? `unknown: ${a.quote.error}`
          : 'asking the server…';
    rows.push(['Cost', costText, a.quote.status === 'error' ? 'tone.error' : undefined]);
    if (shown === undefined) {
      // Not read yet: no balance row.
    } else if (isUnjudged(shown)) {
      // Not judged by (stale): neither "after" nor "too low" is said from it, and Enter is not
      // refused by it (the bulk preview says the same of its lines).
      rows.push([
        'Balance',
        `not known now (${credits(shown.credits)}, ${staleText(shown)})`,
        'tone.warning',
      ]);
      for (const piece of wrapWords(
        'Sent now, the service refuses the change if the balance does not cover it (nothing is charged then).',
        Math.max(1, valueWidth),
      ))
        rows.push([rows.at(-1)?.[0] === 'Balance' ? 'If short' : '', piece]);
    } else if (balance !== undefined) {
      const after = cost !== undefined ? balance - cost : undefined;
      rows.push([
        'Balance',
        `${balanceNowText(shown)} → ${after === undefined ? '?' : creditsText(after)} after`,
        after !== undefined && after < 0 ? 'tone.error' : shown.stale ? 'tone.warning' : undefined,
      ]);
    }
  }
  return rows;
}

/** What happened, the message on rows of `valueWidth` cells. */
function outcome(a: ActionState, valueWidth: number): Cells[] {
  const rows: Cells[] = [];
  const r = a.result;
  if (a.phase === 'sending') rows.push(['Status', 'sending…']);
  if (a.phase === 'checking') rows.push(['Status', 'checking the server…']);
  // While sending or checking, the message continues the status row above (one label, one key).
  // Said whole, on as many rows as it takes: what happened and what to do next is its end ("nothing
  // charged: review it and try again"), the part a cut row would lose.
  if (a.message) {
    const tone = a.phase === 'failed' || a.phase === 'unknown' ? 'tone.error' : 'tone.success';
    for (const piece of wrapWords(a.message, Math.max(1, valueWidth)))
      rows.push([rows.length ? '' : 'Status', piece, tone]);
  }
  if (a.phase === 'done') {
    if (!a.message) rows.push(['Status', 'done', 'tone.success']);
    if (r?.line && (a.op === 'create' || a.op === 'trial')) {
      rows.push(['Username', r.line.username], ['Password', r.line.password]);
    }
    if (r?.line?.exp_date) rows.push(['Expires', absoluteText(r.line.exp_date)]);
    if (a.op === 'upgrade' && r?.line) rows.push(['Connections', String(r.line.connections)]);
    if (r?.deducedCredits !== undefined) rows.push(['Charged', `${credits(r.deducedCredits)}`]);
    if (r?.newBalance !== undefined) rows.push(['Balance', creditsText(r.newBalance)]);
  }
  return rows;
}
