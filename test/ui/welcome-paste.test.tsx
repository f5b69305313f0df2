import { render } from 'ink-testing-library';
import stripAnsi from 'strip-ansi';
import { describe, expect, it, vi } from 'vitest';
import { type AccountProblem, checkAccountFields } from '../../src/app/profiles';
import {
  createPasteHub,
  installPasteFilter,
  PASTE_END,
  PASTE_START,
  type ReadableInput,
} from '../../src/keys/paste';
import { type WelcomeResult, WelcomeScreen } from '../../src/ui/screens/WelcomeScreen';

/** The welcome screen as run.tsx shows it: stdin filtered, pastes through the hub. */
function renderWelcome(
  check: (url: string, key: string) => Promise<AccountProblem | null> = async () => ({
    field: 'url',
    message: 'refused',
  }),
) {
  const pastes = createPasteHub();
  const connects: Array<[string, string]> = [];
  const results: WelcomeResult[] = [];
  const ui = render(
    <WelcomeScreen
      connect={async (url, key) => {
        connects.push([url, key]);
        return check(url, key);
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

  it('a key pasted into the URL field: the check says what is wrong without repeating it', async () => {
    const canary = 'lds_canaryKEY7f3a9c1e5b2d0000';
    const w = renderWelcome((url, key) => checkAccountFields(url, key, 'test'));
    await w.waitFrame((f) => f.includes('Welcome to linedesk'));
    await w.type('\u001b[B');
    await w.type('\r');
    await w.waitFrame((f) => f.includes('Base URL'));
    await w.type(`${PASTE_START}${canary}${PASTE_END}`);
    await w.type('\t');
    await w.type(`${PASTE_START}${canary}${PASTE_END}`);
    await w.type('\r');
    await w.waitFrame((f) => f.includes('not a valid URL'));
    const message = w
      .frame()
      .split('\n')
      .find((l) => l.includes('not a valid URL'))!;
    expect(message).toContain('https://panel.example.com');
    expect(message).not.toContain(canary);
    // The field shows what was typed in it; nothing else repeats it.
    expect(w.frame().split(canary)).toHaveLength(2);
  });
});

describe('the welcome form takes keys typed ahead in one read (issue 23)', () => {
  it('↓, Enter, the URL, Tab, the key and Enter in ONE write: the key goes to its field, masked, and the account is checked', async () => {
    const w = renderWelcome();
    await w.waitFrame((f) => f.includes('Welcome to linedesk'));
    await w.type('\u001b[B\rhttps://panel.example.com\tsk_live_secret\r');
    await vi.waitFor(() => expect(w.connects).toEqual([['https://panel.example.com', 'sk_live_secret']]));
    await w.waitFrame((f) => f.includes('refused'));
    expect(w.frame()).not.toContain('sk_live_secret');
    expect(w.frame()).toContain('https://panel.example.com');
  });

  it('an unreachable URL keeps the focus on the URL: the correction is typed there, in clear', async () => {
    const w = renderWelcome(async (url) =>
      url.includes('typo') ? { field: 'url', message: 'Could not connect to panel.typo.example' } : null,
    );
    await w.waitFrame((f) => f.includes('Welcome to linedesk'));
    await w.type('\u001b[B\r');
    await w.waitFrame((f) => f.includes('Base URL'));
    await w.type('https://panel.typo.example\tsk_live_secret\r');
    await w.waitFrame((f) => f.includes('Could not connect'));
    expect(w.frame()).toMatch(/› Base URL/);
    await w.type('\u007f'.repeat('typo.example'.length));
    await w.type('fixed.example');
    await w.waitFrame((f) => f.includes('https://panel.fixed.example'));
    expect(w.frame()).not.toContain('sk_live_secret');
    await w.type('\r');
    await vi.waitFor(() =>
      expect(w.results).toEqual([
        { kind: 'account', baseUrl: 'https://panel.fixed.example', apiKey: 'sk_live_secret' },
      ]),
    );
  });

  it('a refused key keeps the focus on the key', async () => {
    const w = renderWelcome(async () => ({ field: 'key', message: 'The API key was refused' }));
    await w.waitFrame((f) => f.includes('Welcome to linedesk'));
    await w.type('\u001b[B\r');
    await w.waitFrame((f) => f.includes('Base URL'));
    await w.type('https://panel.example.com\tsk_wrong\r');
    await w.waitFrame((f) => f.includes('was refused'));
    expect(w.frame()).toMatch(/› API key/);
  });
});
