import { render } from 'ink-testing-library';
import stripAnsi from 'strip-ansi';
import { describe, expect, it, vi } from 'vitest';
import {
  createPasteHub,
  installPasteFilter,
  PASTE_END,
  PASTE_START,
  type ReadableInput,
} from '../../src/keys/paste';
import { type WelcomeResult, WelcomeScreen } from '../../src/ui/screens/WelcomeScreen';

/** The welcome screen as run.tsx shows it: stdin filtered, pastes through the hub. */
function renderWelcome() {
  const pastes = createPasteHub();
  const connects: Array<[string, string]> = [];
  const results: WelcomeResult[] = [];
  const ui = render(
    <WelcomeScreen
      connect={async (url, key) => {
        connects.push([url, key]);
        return 'refused';
      }}
      onDone={(r) => results.push(r)}
      pastes={pastes}
    />,
  );
  installPasteFilter(ui.stdin as unknown as ReadableInput, pastes.emit);
  const frame = () => stripAnsi(ui.lastFrame() ?? '');
  const waitFrame = (check: (f: string) => boolean) =>
    vi.waitFor(
      () => {
        if (!check(frame())) throw new Error(`frame did not match:\n${frame()}`);
      },
      { timeout: 3000, interval: 10 },
    );
  const type = async (s: string) => {
    ui.stdin.write(s);
    await new Promise((r) => setImmediate(r));
  };
  return { ui, connects, results, frame, waitFrame, type };
}

describe('the welcome screen takes a paste as text', () => {
  it('a URL and a key pasted with Enters and Esc inside: typed, nothing connects or goes back', async () => {
    const w = renderWelcome();
    await w.waitFrame((f) => f.includes('Welcome to linedesk'));
    await w.type('\u001b[B'); // ↓ to "Connect an account"
    await w.type('\r');
    await w.waitFrame((f) => f.includes('Base URL'));
    await w.type(`${PASTE_START}https://panel.example.com\r\u001b\rjunk${PASTE_END}`);
    await w.waitFrame((f) => f.includes('https://panel.example.com') && f.includes('Pasted the first'));
    expect(w.frame()).not.toContain('junk');
    expect(w.frame()).not.toContain('[200~');
    await w.type('\t');
    await w.type(`${PASTE_START}sk_live_secret\r${PASTE_END}`);
    await w.waitFrame((f) => f.includes('••••'));
    expect(w.connects).toEqual([]); // the Enters inside the pastes did not check the account
    expect(w.results).toEqual([]); // nor did the Esc go back or quit
    expect(w.frame()).not.toContain('sk_live_secret');
    await w.type('\r'); // a real Enter does
    await vi.waitFor(() => expect(w.connects).toEqual([['https://panel.example.com', 'sk_live_secret']]));
  });

  it('a paste on the first choice is ignored, said so', async () => {
    const w = renderWelcome();
    await w.waitFrame((f) => f.includes('Welcome to linedesk'));
    await w.type(`${PASTE_START}\r${PASTE_END}`);
    await w.waitFrame((f) => f.includes('Paste ignored here'));
    expect(w.results).toEqual([]);
  });
});
