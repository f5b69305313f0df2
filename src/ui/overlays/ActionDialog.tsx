import { Box, Text } from 'ink';
import { extendedExpiry, newLineExpiry } from '../../domain/estimate';
import { absoluteText, credits, creditsText, fitWidth } from '../../domain/format';
import { hint, keyHintText } from '../../keys/keymap';
import { type ActionState, confirmBlocker, SPENDS } from '../../store/action-slice';
import { loaded } from '../../store/types';
import { borderStyle } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';

const TITLES = {
  create: 'New line',
  trial: 'New trial line',
  extend: 'Extend',
  upgrade: 'Change connections of',
  unsuspend: 'Unsuspend',
  delete: 'Delete',
} as const;

const at = (ms: number) => absoluteText({ raw: '', ms });

/** The confirm dialog of every change: what changes, what it costs, the balance now and after. */
export function ActionDialog({ width }: { readonly width: number }) {
  const a = useApp((s) => s.action);
  const balance = useApp((s) => loaded(s.account)?.credits);
  if (!a) return null;
  const rows = a.phase === 'review' ? review(a, balance) : outcome(a);
  const blocker = confirmBlocker(a, balance);
  const footerHint =
    a.phase === 'review'
      ? blocker
        ? `✗ ${blocker} · ${hint('action.cancel', 'back')}`
        : `${hint('action.confirm', 'confirms (one request)')} · ${hint('action.cancel', 'back')}${a.op === 'extend' || a.op === 'upgrade' ? ` · ${keyHintText('action.decrease')}/${keyHintText('action.increase')} adjust` : ''}`
      : a.phase === 'sending' || a.phase === 'checking'
        ? `Waiting for the server… (${keyHintText('action.confirm')} does nothing until it answers)`
        : a.phase === 'unknown'
          ? `${hint('action.recheck', 'checks the server again')} · nothing is re-sent by itself`
          : a.phase === 'done' && a.result?.line && (a.op === 'create' || a.op === 'trial')
            ? `${hint('action.copy', 'copies username and password')} · ${hint('action.cancel', 'closes')}`
            : hint('action.cancel', 'closes');
  return (
    <Box
      flexDirection="column"
      width={width}
      borderStyle={borderStyle()}
      borderColor={color(a.op === 'delete' ? 'ui.danger' : 'ui.accent')}
    >
      <Text bold>{fitWidth(` ${TITLES[a.op]} ${a.line?.username ?? ''}`, width - 2)}</Text>
      {rows.map(([k, v, tone], slot) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are keyed by their slot on screen
        <Text key={slot} wrap="truncate">
          <Text color={color('ui.muted')}>{fitWidth(`  ${k}`, 18)}</Text>
          <Text color={tone ? color(tone) : undefined}>{fitWidth(v, Math.max(0, width - 20))}</Text>
        </Text>
      ))}
      <Text color={color(blocker && a.phase === 'review' ? 'tone.error' : 'ui.focus')} wrap="truncate">
        {fitWidth(` ${footerHint}`, width - 2)}
      </Text>
    </Box>
  );
}

type Row = [string, string, ('tone.error' | 'tone.success' | 'ui.badge')?];

function review(a: ActionState, balance: number | undefined): Row[] {
  const now = Date.now();
  const rows: Row[] = [];
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
    const cost = a.quote.cost;
    const costText =
      a.quote.status === 'ready'
        ? `${credits(cost!)} ${a.estimate ? '(estimate from package prices)' : '(quoted by the server)'}`
        : a.quote.status === 'error'
          ? `unknown: ${a.quote.error}`
          : 'asking the server…';
    rows.push(['Cost', costText, a.quote.status === 'error' ? 'tone.error' : undefined]);
    if (balance !== undefined) {
      const after = cost !== undefined ? balance - cost : undefined;
      rows.push([
        'Balance',
        `${creditsText(balance)} now → ${after === undefined ? '?' : creditsText(after)} after`,
        after !== undefined && after < 0 ? 'tone.error' : undefined,
      ]);
    }
  }
  return rows;
}

function outcome(a: ActionState): Row[] {
  const rows: Row[] = [];
  const r = a.result;
  if (a.phase === 'sending') rows.push(['Status', 'sending…']);
  if (a.phase === 'checking') rows.push(['Status', 'checking the server…']);
  // While sending or checking, the message continues the status row above (one label, one key).
  if (a.message)
    rows.push([
      rows.length ? '' : 'Status',
      a.message,
      a.phase === 'failed' || a.phase === 'unknown' ? 'tone.error' : 'tone.success',
    ]);
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
