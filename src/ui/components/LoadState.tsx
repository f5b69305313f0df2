import { Text } from 'ink';
import { keyHintText } from '../../commands/keymap';
import type { Load } from '../../store/types';
import { color } from '../theme';

/**
 * The one way a load shows before (or instead of) its data: nothing yet and loading read
 * "Loading <what>…"; a failure names what could not be loaded, why, and the key that retries, and
 * stays above the data it already had. With data and no failure it draws nothing.
 */
export function LoadState<T>({ load, what }: { readonly load: Load<T>; readonly what: string }) {
  if (load.status === 'error')
    return (
      <Text color={color('tone.error')} wrap="wrap">
        {` Could not load ${what}: ${load.error} (${keyHintText('app.refresh')} retries)`}
      </Text>
    );
  if (load.status === 'ready' || ('data' in load && load.data !== undefined)) return null;
  return <Text color={color('ui.muted')}>{` Loading ${what}…`}</Text>;
}
