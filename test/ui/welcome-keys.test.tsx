/**
 * The welcome screen's keys come from the one table (commands/areas/welcome.ts, keys/welcome.ts), as
 * every screen's do: in each of its states the hint line names exactly the table's keys that work
 * there (each key shown runs its command, pressed for real; every command the table offers there is
 * named; while an account is checked, none), and each key does what the line says it does.
 */
import { render } from 'ink-testing-library';
import stripAnsi from 'strip-ansi';
import { describe, expect, it, vi } from 'vitest';
import { type CommandId, keyLabel, visibleCommands } from '../../src/commands/keymap';
import { resolveWelcomeKey, type WelcomeAt } from '../../src/keys/welcome';
import { type WelcomeResult, WelcomeScreen } from '../../src/ui/screens/WelcomeScreen';
import { keyBytes } from '../helpers/app';

/** A welcome whose account check waits until the test answers it. */
function renderWelcome() {
  const results: WelcomeResult[] = [];
  const connects: Array<[string, string]> = [];
  let answer: (problem: null) => void = () => {};
  const ui = render(
    <WelcomeScreen
      connect={(url, key) => {
        connects.push([url, key]);
        return new Promise((r) => {
          answer = r;
        });
      }}
      onDone={(r) => results.push(r)}
    />,
  );
  const frame = () => stripAnsi(ui.lastFrame() ?? '');
  const waitFrame = (check: (f: string) => boolean) =>
    vi.waitFor(
      () => {
        if (!check(frame())) throw new Error(`frame did not match:\n${frame()}`);
      },
      { timeout: 3000, interval: 10 },
    );
  const press = async (key: string) => {
    ui.stdin.write(keyBytes(key));
    await new Promise((r) => setImmediate(r));
  };
  const type = async (text: string) => {
    ui.stdin.write(text);
    await new Promise((r) => setImmediate(r));
  };
  return { ui, results, connects, frame, waitFrame, press, type, answer: () => answer(null) };
}
type Welcome = ReturnType<typeof renderWelcome>;

/** The states of the welcome, each reached from a fresh render, with what its keys find. */
const STATES: Record<string, { at: WelcomeAt; reach: () => Promise<Welcome> }> = {
  choosing: {
    at: { scope: 'welcome', checking: false },
    reach: async () => {
      const w = renderWelcome();
      await w.waitFrame((f) => f.includes('Welcome to linedesk'));
      return w;
    },
  },
  'the account, on the URL': {
    at: { scope: 'connect', checking: false },
    reach: async () => {
      const w = await STATES.choosing!.reach();
      await w.press('down');
      await w.press('enter');
      await w.waitFrame((f) => f.includes('Connect an account'));
      await w.type('http://x');
      await w.waitFrame((f) => f.includes('http://x'));
      return w;
    },
  },
  'the account, checking': {
    at: { scope: 'connect', checking: true },
    reach: async () => {
      const w = await STATES['the account, on the URL']!.reach();
      await w.press('tab');
      await w.type('k');
      await w.press('enter');
      await w.waitFrame((f) => f.includes('Checking the account'));
      return w;
    },
  },
};

/** The hint line's parts: each its key labels ("↑", "↓") and the rest ("choose"). */
function hintParts(frame: string): { labels: string[]; does: string }[] {
  const last = frame.trimEnd().split('\n').at(-1)!.trim();
  if (last.startsWith('Checking the account')) return [];
  return last.split(' · ').map((part) => {
    const [keys, ...rest] = part.split(' ');
    return { labels: keys!.split('/'), does: rest.join(' ') };
  });
}

/** The table's key that is written as `label` and runs a command on the welcome now. */
function keyOf(at: WelcomeAt, label: string): { key: string; id: CommandId } | undefined {
  for (const c of visibleCommands(at.scope))
    for (const key of c.keys)
      if (keyLabel(key) === label && resolveWelcomeKey(at, key)?.id === c.id) return { key, id: c.id };
  return undefined;
}

/** What a key of each command visibly does, from the state it was pressed in. */
const DOES: Partial<Record<CommandId, (w: Welcome) => Promise<unknown>>> = {
  'welcome.up': (w) => w.waitFrame((f) => /[›>] Connect an account/.test(f)),
  'welcome.down': (w) => w.waitFrame((f) => /[›>] Connect an account/.test(f)),
  'welcome.confirm': (w) => vi.waitFor(() => expect(w.results).toEqual([{ kind: 'sandbox' }])),
  'welcome.quit': (w) => vi.waitFor(() => expect(w.results).toEqual([{ kind: 'quit' }])),
  'connect.nextField': (w) => w.waitFrame((f) => /[›>] API key/.test(f)),
  // On the URL with no key yet: on to the key (the part says it checks once there is one).
  'connect.check': (w) => w.waitFrame((f) => /[›>] API key/.test(f)),
  'connect.back': (w) => w.waitFrame((f) => f.includes('Welcome to linedesk')),
};

describe('the welcome names the keys that work there, from the table', () => {
  for (const [name, state] of Object.entries(STATES)) {
    it(`${name}: every key shown runs its command and does what is said; every key offered is shown`, async () => {
      const first = await state.reach();
      const parts = hintParts(first.frame());
      const named = new Set<CommandId>();
      for (const part of parts)
        for (const label of part.labels) {
          const found = keyOf(state.at, label);
          expect(found, `${name}: "${label} ${part.does}" is no key that works here`).toBeDefined();
          named.add(found!.id);
          // Pressed for real, from the same state: it does what the table's command does.
          const w = await state.reach();
          await w.press(found!.key);
          await DOES[found!.id]!(w);
          w.ui.unmount();
        }
      // And the other way: what the table offers here (its footer commands that work now) is named.
      const offered = visibleCommands(state.at.scope).filter(
        (c) => c.footer && c.keys.some((k) => resolveWelcomeKey(state.at, k)?.id === c.id),
      );
      expect([...named].sort(), name).toEqual(offered.map((c) => c.id).sort());
      first.ui.unmount();
    });
  }

  it('while the account is checked, no key but Ctrl-C acts (and none is shown)', async () => {
    const w = await STATES['the account, checking']!.reach();
    await w.press('escape');
    await w.press('tab');
    expect(w.frame()).toContain('Checking the account');
    expect(w.connects).toHaveLength(1);
    await w.press('ctrl+c');
    await vi.waitFor(() => expect(w.results).toEqual([{ kind: 'quit' }]));
    w.ui.unmount();
  });
});
