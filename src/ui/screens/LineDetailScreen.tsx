import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { type CommandId, keyHint, keyHintText } from '../../commands/keymap';
import { diagnose, type Fix } from '../../domain/diagnosis';
import { absoluteText, expiryText, fitWidth, relativeText, statusOf } from '../../domain/format';
import { spoken } from '../../present/speech';
import { selectDetailExtras, selectDetailLine, selectDetailNote } from '../../store/selectors';
import { useApp } from '../store-context';
import { color, statusToken } from '../theme';

const FIX_COMMAND: Record<Fix, CommandId> = {
  unsuspend: 'line.unsuspend',
  extend: 'line.extend',
  newLine: 'line.create',
};
const FIXES = Object.keys(FIX_COMMAND) as Fix[];
const FIX_WORDS: Record<Fix, string> = {
  unsuspend: 'unsuspends',
  extend: 'extends',
  newLine: 'a new line replaces it',
};

/**
 * Every field of one line, under a diagnosis (why it does or does not work now, and the keys that
 * fix it); dates absolute and relative; the password hidden until `p`.
 */
export function LineDetailScreen({ width, height }: { readonly width: number; readonly height: number }) {
  const line = useApp(selectDetailLine);
  const showPassword = useApp((s) => s.showPassword);
  const note = useApp(selectDetailNote);
  const extras = useApp(selectDetailExtras);
  const fixHints = useApp(
    useShallow((s) => FIXES.map((f) => keyHint(s, FIX_COMMAND[f], FIX_WORDS[f]) ?? '')),
  );
  if (!line) return <Text> No line.</Text>;
  const now = Date.now();
  const status = statusOf(line, now);
  // List items omit MAC and parental code; a single-line response (a change here) carries them.
  const notInList = 'not in the list; shown once the service returns the line (after a change here)';
  const dx = diagnose(line, now);
  // Only the fixes whose keys work now (none in read-only mode): text never offers a refused key.
  const fixText = dx.fixes
    .map((f) => fixHints[FIXES.indexOf(f)])
    .filter(Boolean)
    .join(' · ');
  const rows: Array<[string, string, string | undefined]> = [
    [
      'Diagnosis',
      `${dx.why}${fixText ? `  →  ${fixText}` : ''}`,
      color(dx.works === true ? 'tone.success' : dx.works === false ? 'tone.error' : 'ui.muted'),
    ],
    ['Username', line.username, undefined],
    [
      'Password',
      showPassword
        ? line.password
        : `${'•'.repeat(Math.min(12, line.password.length))}  (${keyHintText('detail.password')} shows)`,
      undefined,
    ],
    ['Label', line.label || '—', undefined],
    // Notes are the user's own, not the service's: said so where they are shown.
    [
      'Local note',
      `kept on this machine, not on the service  (${keyHintText('note.edit')} ${note ? 'edits' : 'adds one'})`,
      color('ui.muted'),
    ],
    ['Customer', note?.name || '—', undefined],
    ['Phone', note?.phone || '—', undefined],
    ...noteRows(note?.text ?? '', Math.max(10, width - 16)).map(
      (text, i): [string, string, string | undefined] => [i ? '' : 'Note', text, undefined],
    ),
    ['Status', status, color(statusToken(status))],
    ['Type', line.is_trial ? 'trial' : 'premium', undefined],
    ['Connections', String(line.connections), undefined],
    ['Expires', `${absoluteText(line.exp_date)}  (${expiryText(line.exp_date, now)})`, undefined],
    ['Period start', `${absoluteText(line.start_date)}  (${relativeText(line.start_date, now)})`, undefined],
    ['Created', `${absoluteText(line.created_at)}  (${relativeText(line.created_at, now)})`, undefined],
    ['MAC address', extras ? (extras.macaddress ?? '—') : notInList, extras ? undefined : color('ui.muted')],
    [
      'Parental code',
      extras ? (extras.parental_code ?? '—') : notInList,
      extras ? undefined : color('ui.muted'),
    ],
    ['Server', line.hostname ?? '—', undefined],
    ['Line id', line.id, undefined],
  ];
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate">
        {fitWidth(` Line ${line.username}`, width)}
      </Text>
      {rows.slice(0, Math.max(0, height - 1)).map(([k, v, c], i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a note's second row has no name of its own
        <Text key={`${k}-${i}`} wrap="truncate" aria-label={`${k}: ${spoken(v)}`}>
          <Text color={color('ui.muted')}>{fitWidth(`  ${k}`, 16)}</Text>
          <Text color={c}>{fitWidth(v, Math.max(0, width - 16))}</Text>
        </Text>
      ))}
    </Box>
  );
}

/** A note's text in at most two rows of `width` cells (by code points), line by line as it was
 *  written; the second ends in … when the rest does not fit. */
function noteRows(text: string, width: number): string[] {
  if (!text) return ['—'];
  const rows = text
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      const chars = [...l];
      const out: string[] = [];
      for (let i = 0; i < chars.length; i += width)
        out.push(
          chars
            .slice(i, i + width)
            .join('')
            .trimStart(),
        );
      return out;
    });
  if (rows.length <= 2) return rows;
  const second = [...rows[1]!];
  if (second.length >= width) second[width - 1] = '…';
  else second.push('…');
  return [rows[0]!, second.join('')];
}
