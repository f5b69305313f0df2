import { Text } from 'ink';
import { keyNamed, said, wrapped } from '../../commands/keymap';
import type { AppState } from '../../store/app-store';
import type { Load } from '../../store/types';
import { useApp } from '../store-context';
import { color } from '../theme';

interface LoadWords {
  /** What is loaded: "lines", "the account". */
  readonly what: string;
  /** What is said while it loads, instead of "Loading <what>". */
  readonly doing?: string;
  /** What a failure starts with, instead of "Could not load <what>:". */
  readonly failed?: string;
  /** The failure names the key that retries (the screen's refresh); false where Enter tries again. */
  readonly retries?: boolean;
}

/** The key that retries a failed load (refresh), only while it works here (not under the palette). */
export const retryKey = (s: AppState): string | null => keyNamed(s, 'app.refresh');

/**
 * The words of a load that has no data to show yet, or failed; null when there is nothing to say
 * (data and no failure). For a line of text that says more than the load (the lines' status line).
 * `key`: the key that retries now (`retryKey`), named in a failure; null when none works now.
 */
export function loadText<T>(
  load: Load<T>,
  { what, doing, failed, retries = true }: LoadWords,
  key: string | null,
): string | null {
  if (load.status === 'error')
    return `${failed ?? `Could not load ${what}:`} ${load.error}${wrapped(retries ? said(key, 'retries') : null)}`;
  if (load.status === 'ready' || ('data' in load && load.data !== undefined)) return null;
  return `${doing ?? `Loading ${what}`}…`;
}

/**
 * The one way a load shows before (or instead of) its data: nothing yet and loading read
 * "Loading <what>…"; a failure names what could not be loaded, why, and the key that retries (only
 * while it works there: not under the palette), and stays above the data it already had. With data
 * and no failure it draws nothing. With `retries` false it names no key and reads no store (the
 * welcome screen has none).
 */
export function LoadState<T>(props: { readonly load: Load<T> } & LoadWords) {
  return props.retries === false ? <LoadLine {...props} retry={null} /> : <Retrying {...props} />;
}

function Retrying<T>(props: { readonly load: Load<T> } & LoadWords) {
  const key = useApp(retryKey);
  return <LoadLine {...props} retry={key} />;
}

function LoadLine<T>({
  load,
  retry,
  ...words
}: { readonly load: Load<T>; readonly retry: string | null } & LoadWords) {
  const text = loadText(load, words, retry);
  if (text === null) return null;
  return (
    <Text color={color(load.status === 'error' ? 'tone.error' : 'ui.muted')} wrap="wrap">
      {` ${text}`}
    </Text>
  );
}
