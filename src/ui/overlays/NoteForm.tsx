import { Box, Text } from 'ink';
import { said } from '../../commands/keymap';
import { fitWidth } from '../../domain/format';
import { NOTE_LIMITS } from '../../services/notes';
import { NOTE_FIELDS, NOTE_LABELS } from '../../store/notes-slice';
import { caretOf } from '../../store/text-target';
import { TextField } from '../components/TextField';
import { borderStyle, glyph } from '../glyphs';
import { useApp } from '../store-context';
import { color } from '../theme';
import { useKeysNamed } from '../use-keys-named';

/** `n`: customer, phone and free text for one line, kept on this machine; a message at each field. */
export function NoteForm({ width }: { readonly width: number }) {
  const f = useApp((s) => s.noteForm);
  const caret = useApp(caretOf);
  const save = said(
    useKeysNamed(['note.save'] as const)['note.save'],
    'saves; all three blank removes the note',
  );
  if (!f) return null;
  return (
    <Box flexDirection="column" width={width} borderStyle={borderStyle()} borderColor={color('ui.accent')}>
      <Text bold wrap="truncate">
        {fitWidth(` Note for ${f.username} — kept on this machine, never sent to the service`, width - 2)}
      </Text>
      {NOTE_FIELDS.map((field) => {
        const focused = f.focus === field;
        const error = f.errors[field];
        return (
          <Box key={field} flexDirection="column">
            <Box>
              <Box flexShrink={0}>
                <Text color={focused ? color('ui.focus') : color('ui.muted')}>
                  {fitWidth(`${focused ? glyph('cursor') : ' '} ${NOTE_LABELS[field]}`, 12)}
                </Text>
              </Box>
              {focused ? (
                <TextField value={oneRow(f.values[field])} caret={caret} />
              ) : (
                <Text wrap="truncate">
                  {fitWidth(oneRow(f.values[field]) || '—', Math.max(10, width - 14))}
                </Text>
              )}
            </Box>
            {(focused || error) && (
              <Text color={error ? color('tone.error') : color('ui.muted')} wrap="truncate">
                {fitWidth(
                  `            ${error ? `${glyph('fail')} ${error}` : `up to ${NOTE_LIMITS[field]} characters`}`,
                  width - 2,
                )}
              </Text>
            )}
          </Box>
        );
      })}
      <Text color={color('ui.muted')} wrap="truncate">
        {fitWidth(save ? ` ${save}` : '', width - 2)}
      </Text>
    </Box>
  );
}

/** A note's lines in one row of the form, each break shown as ⏎ (one UTF-16 unit: the caret stays put). */
const oneRow = (value: string) => value.replaceAll('\n', '⏎');
