// Everything that draws (Ink, React, Yoga, the screens), loaded by run.tsx only once the first
// screen's requests have left: Ink and Yoga load while the server answers, not before it is asked.
import { render } from 'ink';
import type { UiEffects } from '../commands/effects';
import type { PasteHub } from '../keys/paste';
import type { AppStore } from '../store/app-store';
import { App } from '../ui/App';
import { ErrorBoundary } from '../ui/ErrorBoundary';
import { asciiText, glyphMode } from '../ui/glyphs';
import { parkingWrite } from '../ui/screen-reader';
import { type WelcomeProps, WelcomeScreen } from '../ui/screens/WelcomeScreen';
import { StoreProvider } from '../ui/store-context';

export type Instance = ReturnType<typeof render>;

// `interactive`: the app only runs on a terminal (checked before), so a CI variable in the user's
// environment must not turn Ink into a print-the-last-frame logger.
const BASE = { exitOnCtrlC: false, patchConsole: true, interactive: true } as const;

/**
 * In ASCII mode (ui/glyphs.ts) every frame passes the glyph table on its way out: components draw
 * their own glyphs in ASCII already; text from elsewhere (messages, values) gets the same stand-ins,
 * each as wide as what it replaces, so the layout Ink measured holds. In the screen-reader mode the
 * markers are blanks instead, and the cursor is parked on the selected row (ui/screen-reader.ts).
 */
function terminal(): { readonly stdout?: NodeJS.WriteStream; readonly isScreenReaderEnabled: boolean } {
  const mode = glyphMode();
  const speech = mode === 'speech';
  if (mode === 'utf8') return { isScreenReaderEnabled: false };
  const out = process.stdout;
  const raw = (chunk: unknown, ...rest: unknown[]) =>
    (out.write as (...a: unknown[]) => boolean)(chunk, ...rest);
  const parked = speech
    ? parkingWrite(
        (chunk) => raw(chunk),
        () => out.rows || 24,
      )
    : null;
  const write = (chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'string') return raw(chunk, ...rest);
    const text = asciiText(chunk, speech);
    return parked && rest.length === 0 ? parked(text) : raw(text, ...rest);
  };
  const stdout = new Proxy(out, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { stdout, isScreenReaderEnabled: speech };
}

export function renderWelcome(
  props: WelcomeProps & { readonly pastes: PasteHub },
  onFatal: (err: unknown) => void,
) {
  return render(
    <ErrorBoundary onFatal={onFatal}>
      <WelcomeScreen {...props} />
    </ErrorBoundary>,
    { ...BASE, ...terminal() },
  );
}

export function renderApp(store: AppStore, effects: UiEffects, onFatal: (err: unknown) => void): Instance {
  return render(
    <ErrorBoundary onFatal={onFatal}>
      <StoreProvider store={store}>
        <App effects={effects} />
      </StoreProvider>
    </ErrorBoundary>,
    // Ink throttles to 30 frames a second by default, which a key held down feels as lag.
    // Incremental rendering rewrites only changed rows: a cursor move is ~0.5 KB, not ~6 KB.
    { ...BASE, ...terminal(), maxFps: 120, incrementalRendering: true },
  );
}
