import { Box, Text, useIsScreenReaderEnabled } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { type CommandId, keyNamed, said, wrapped } from '../../commands/keymap';
import { diagnose, type Fix } from '../../domain/diagnosis';
import { absoluteText, expiryText, fitWidth, relativeText, statusOf } from '../../domain/format';
import { LINK_NAMES, type LinkKind, linkText } from '../../domain/links';
import { spoken, wrappedRows } from '../../present/speech';
import { selectDetailExtras, selectDetailLine, selectDetailNote, selectLinksOf } from '../../store/selectors';
import { useApp } from '../store-context';
import { color, statusToken } from '../theme';

const FIX_COMMAND: Record<Fix, CommandId> = {
  unsuspend: 'line.unsuspend',
  extend: 'line.extend',
  newLine: 'line.create',
};
const FIXES = Object.keys(FIX_COMMAND) as Fix[];

/** The connection links, in the order shown, and the key that copies each. */
const LINK_COMMAND: Record<LinkKind, CommandId> = {
  m3u: 'link.playlist',
  epg: 'link.guide',
  server: 'link.xtream',
  portal: 'link.portal',
};
const LINKS = Object.keys(LINK_COMMAND) as LinkKind[];

/** Rows left out first, in this order, when the terminal is too short for every row (the links and
 *  the line's identity stay; these have their dates in the browser or a key in the footer). */
const SPARE_ROWS = ['Period start', 'Created', 'Local note', 'Type'];
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
    useShallow((s) => FIXES.map((f) => said(keyNamed(s, FIX_COMMAND[f]), FIX_WORDS[f]) ?? '')),
  );
  const links = useApp((s) => (line ? selectLinksOf(s, line) : null));
  // A key is named only while its command runs (a link that cannot be made shows its reason instead).
  const linkHints = useApp(
    useShallow((s) => LINKS.map((k) => said(keyNamed(s, LINK_COMMAND[k]), 'copies') ?? '')),
  );
  // The password's and the note's keys, named only while they work (not under the palette or the
  // copy menu, where they would be typed or do nothing).
  const passwordKey = useApp((s) => keyNamed(s, 'detail.password'));
  const noteKey = useApp((s) => keyNamed(s, 'note.edit'));
  const isSpoken = useIsScreenReaderEnabled();
  if (!line || !links) return <Text> No line.</Text>;
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
      // Heard, an arrow is read "to" ("expired 58 days ago to e extends"): a pause instead.
      `${dx.why}${fixText ? (isSpoken ? `; ${fixText}` : `  →  ${fixText}`) : ''}`,
      color(dx.works === true ? 'tone.success' : dx.works === false ? 'tone.error' : 'ui.muted'),
    ],
    ['Username', line.username, undefined],
    [
      'Password',
      showPassword
        ? line.password
        : `${isSpoken ? 'hidden' : '•'.repeat(Math.min(12, line.password.length))}${wrapped(said(passwordKey, 'shows'), '  ')}`,
      undefined,
    ],
    ['Label', line.label || '—', undefined],
    // Notes are the user's own, not the service's: said so where they are shown.
    [
      'Local note',
      `kept on this machine, not on the service${wrapped(said(noteKey, note ? 'edits' : 'adds one'), '  ')}`,
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
    // The host is in the Xtream server's row (or why it cannot be used); the password as above.
    ...LINKS.map((k, i): [string, string, string | undefined] => {
      const link = links[k];
      return link.ok
        ? [
            LINK_NAMES[k],
            `${linkHints[i] ? `${linkHints[i]}  ` : ''}${linkText(link, showPassword)}`,
            undefined,
          ]
        : [LINK_NAMES[k], linkText(link, showPassword), color('tone.warning')];
    }),
    ['Line id', line.id, undefined],
  ];
  // A row is one terminal row; read aloud it is its whole sentence, which wraps (Ink draws the
  // aria-label, not the truncated cells), so it takes as many rows as the sentence needs.
  const spokenRow = ([k, v]: readonly [string, string, unknown]) => `${k}: ${spoken(v)}`;
  const cost = (r: readonly [string, string, unknown]) => (isSpoken ? wrappedRows(spokenRow(r), width) : 1);
  const total = () => rows.reduce((n, r) => n + cost(r), 0);
  // Too short for every row: the spare ones go first, then the rows at the end.
  // A MAC or parental code the list does not carry says only that: it goes before the links do
  // (read aloud it wraps to two rows each, and the links are what a reseller opens the detail for).
  for (const name of [...SPARE_ROWS, ...(extras ? [] : ['MAC address', 'Parental code'])]) {
    if (total() <= height - 1) break;
    const at = rows.findIndex(([k]) => k === name);
    if (at >= 0) rows.splice(at, 1);
  }
  const shown: typeof rows = [];
  for (let room = Math.max(0, height - 1), i = 0; i < rows.length && cost(rows[i]!) <= room; i++) {
    room -= cost(rows[i]!);
    shown.push(rows[i]!);
  }
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate">
        {fitWidth(` Line ${line.username}`, width)}
      </Text>
      {shown.map(([k, v, c], i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a note's second row has no name of its own
        <Text key={`${k}-${i}`} wrap="truncate" aria-label={spokenRow([k, v, c])}>
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
