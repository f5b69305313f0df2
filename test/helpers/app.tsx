import { render } from 'ink-testing-library';
import stripAnsi from 'strip-ansi';
import { vi } from 'vitest';
import type { UiEffects } from '../../src/commands/effects';
import { type CommandId, command } from '../../src/commands/keymap';
import { CONFIRM_ARM_MS } from '../../src/keys/confirm-gate';
import { handlePaste } from '../../src/keys/input';
import { installPasteFilter, type ReadableInput } from '../../src/keys/paste';
import { type AppState, type AppStore, createAppStore } from '../../src/store/app-store';
import type { StoreDeps } from '../../src/store/deps';
import { App } from '../../src/ui/App';
import { StoreProvider } from '../../src/ui/store-context';
import { sandbox } from './sandbox';

/** Bytes a terminal sends for each key name of the keymap. */
const SEQUENCES: Record<string, string> = {
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  pageup: '\u001b[5~',
  pagedown: '\u001b[6~',
  home: '\u001b[H',
  end: '\u001b[F',
  enter: '\r',
  // Esc as the kitty keyboard protocol sends it: unambiguous at once. A lone ESC byte is held by Ink
  // for 20 ms (it may start Alt+key), and a key written sooner would glue to it, as in a terminal.
  escape: '\u001b[27u',
  space: ' ',
  tab: '\t',
  backspace: '\u007f',
  delete: '\u001b[3~',
  'ctrl+c': '\u0003',
};
export const keyBytes = (key: string) => {
  if (SEQUENCES[key]) return SEQUENCES[key];
  if (key === 'shift+tab') return '\u001b[Z';
  if (key.startsWith('ctrl+')) return String.fromCharCode(key.charCodeAt(5) - 96);
  return key;
};

/** Effects for a command run straight on a store: a copy says it could not (no clipboard here). */
export const NO_FX: UiEffects = { copy: async () => ({ ok: false, why: 'no clipboard in this test' }) };

/** Opens the single-change dialog on a store and waits until its quote is ready (not yet confirmed). */
export async function openQuoted(store: AppStore, open: Parameters<AppState['openAction']>[0]) {
  store.getState().openAction(open);
  await vi.waitFor(
    () => {
      if (store.getState().action?.quote.status !== 'ready') throw new Error('no quote yet');
    },
    { timeout: 10_000, interval: 5 },
  );
}

/** A store on an in-memory sandbox over real HTTP. */
export async function storeOnSandbox(
  opts: Parameters<typeof sandbox>[0] = {},
  deps: Partial<StoreDeps> = {},
  existing?: Awaited<ReturnType<typeof sandbox>>,
) {
  const env = existing ?? (await sandbox(opts));
  const store = createAppStore({
    client: env.client,
    target: { id: 'sandbox:test', kind: 'sandbox', label: 'SANDBOX', baseUrl: env.sb.baseUrl },
    pageSize: 10,
    searchDebounceMs: 50,
    ...deps,
  });
  return { ...env, store };
}

/** The whole app rendered by ink-testing-library (100 columns, 24 rows) against the sandbox. */
export async function renderApp(
  opts: Parameters<typeof sandbox>[0] = {},
  deps: Partial<StoreDeps> = {},
  /** Another session on the same sandbox (e.g. a restart). */
  existing?: Awaited<ReturnType<typeof sandbox>>,
) {
  // The store's clock (the test's own, or real time) moved on by `advance`: a dialog's Enter counts
  // only once the dialog has been on screen for CONFIRM_ARM_MS, and a test waits for that by moving
  // this clock, never by sleeping.
  let offset = 0;
  const base = deps.now ?? Date.now;
  const clock = {
    now: () => base() + offset,
    advance: (ms: number) => {
      offset += ms;
    },
  };
  const env = await storeOnSandbox(opts, { ...deps, now: clock.now }, existing);
  const copied: string[] = [];
  const ui = render(
    <StoreProvider store={env.store}>
      <App
        effects={{
          copy: async (t) => {
            copied.push(t);
            return { ok: true, via: 'the test clipboard' };
          },
        }}
      />
    </StoreProvider>,
  );
  // As the app does with process.stdin: a paste reaches the app as text, never as keys.
  installPasteFilter(ui.stdin as unknown as ReadableInput, (text) => handlePaste(env.store, text));
  void env.store.getState().start();
  const frame = () => stripAnsi(ui.lastFrame() ?? '');
  const waitFrame = (check: (f: string) => boolean, timeout = 5000) =>
    vi.waitFor(
      () => {
        const f = frame();
        if (!check(f)) throw new Error(`frame did not match:\n${f}`);
      },
      { timeout, interval: 10 },
    );
  /** Presses the first key bound to a command: rebinding a key never breaks a test. */
  const press = async (commandId: CommandId) => {
    ui.stdin.write(keyBytes(command(commandId).keys[0]!));
    await new Promise((r) => setImmediate(r));
  };
  const type = async (text: string) => {
    for (const ch of text) {
      ui.stdin.write(ch);
      await new Promise((r) => setImmediate(r));
    }
  };
  /** A deliberate confirm: the dialog has been read (the clock moves past the arm delay), then its key. */
  const confirm = async (commandId: CommandId) => {
    clock.advance(CONFIRM_ARM_MS);
    await press(commandId);
  };
  return { ...env, ui, frame, waitFrame, press, type, confirm, clock, copied };
}

/** The usernames on screen, top to bottom (rows of the lines table). */
export function visibleUsernames(frame: string): string[] {
  const lines = frame.split('\n');
  const header = lines.findIndex((l) => l.includes('USERNAME'));
  return lines
    .slice(header + 1)
    .map((l) => /^([A-Za-z0-9._~-]{12,30})\s/.exec(l.replace(/^[\s›●]*/, ''))?.[1])
    .filter((u): u is string => Boolean(u));
}
