import { Text } from 'ink';
import { fitWidth } from '../../domain/format';
import { useApp } from '../store-context';
import { color, toneToken } from '../theme';

/** Results and errors of the last action, spelled out (the tone is also a word for NO_COLOR). */
export function FlashLine({ width }: { readonly width: number }) {
  const text = useApp((s) => s.flash?.text ?? '');
  const tone = useApp((s) => s.flash?.tone ?? 'info');
  const prefix = tone === 'error' ? 'error: ' : tone === 'warning' ? 'warning: ' : '';
  return (
    <Text color={color(toneToken(tone))} wrap="truncate">
      {fitWidth(text ? ` ${prefix}${text}` : '', width)}
    </Text>
  );
}
