import { Box, Text, useIsScreenReaderEnabled } from 'ink';
import { color } from '../theme';

interface TextFieldProps {
  readonly value: string;
  /** UTF-16 offset of the caret, on a grapheme boundary (keys/text-edit.ts). */
  readonly caret: number;
  /** Shown instead of each character (an API key). */
  readonly mask?: string;
  /** Shown dimmed while the value is empty. */
  readonly placeholder?: string;
}

/**
 * A one-line text field: the text with its caret as an inverse cell. Display only: its keys are
 * the app's (keys/input.ts edits the store), so a key can never be handled twice or against a stale
 * value, whatever the chunking of the input.
 */
export function TextField({ value, caret, mask, placeholder }: TextFieldProps) {
  // A screen reader gets the text as it is, marked as a text field: the terminal cursor is parked
  // after it (ui/screen-reader.ts), where typing goes on.
  const isSpoken = useIsScreenReaderEnabled();
  if (isSpoken) {
    return (
      <Box aria-role="textbox">
        <Text>{mask ? mask.repeat([...value].length) : value}</Text>
      </Box>
    );
  }
  if (!value) {
    const [first = ' ', ...rest] = [...(placeholder ?? '')];
    return (
      <Text>
        <Text inverse>{first}</Text>
        <Text color={color('ui.muted')}>{rest.join('')}</Text>
      </Text>
    );
  }
  const show = (text: string) => (mask ? mask.repeat([...text].length) : text);
  const at = Math.min(Math.max(0, caret), value.length);
  const after = value.slice(at);
  // The caret covers the whole grapheme after it (an emoji, a letter and its accent).
  const under = after
    ? (new Intl.Segmenter().segment(after)[Symbol.iterator]().next().value?.segment ?? ' ')
    : ' ';
  return (
    <Text>
      {show(value.slice(0, at))}
      <Text inverse>{after ? show(under) : ' '}</Text>
      {show(after.slice(under.length))}
    </Text>
  );
}
