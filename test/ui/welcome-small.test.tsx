import { render } from 'ink-testing-library';
import stripAnsi from 'strip-ansi';
import { describe, expect, it, vi } from 'vitest';
import { MIN_COLUMNS, MIN_ROWS } from '../../src/present/min-size';
import { type WelcomeResult, WelcomeScreen } from '../../src/ui/screens/WelcomeScreen';

describe('the welcome screen in a terminal too small (issue 28)', () => {
  it('says the size it needs; Enter does nothing meanwhile; grown, it is back; q quits while small', async () => {
    const results: WelcomeResult[] = [];
    const ui = render(<WelcomeScreen connect={async () => null} onDone={(r) => results.push(r)} />);
    const frame = () => stripAnsi(ui.lastFrame() ?? '');
    const waitFrame = (check: (f: string) => boolean) =>
      vi.waitFor(
        () => {
          if (!check(frame())) throw new Error(`frame did not match:\n${frame()}`);
        },
        { timeout: 3000, interval: 10 },
      );
    const resize = (columns: number, rows: number) => {
      Object.defineProperty(ui.stdout, 'columns', { value: columns, configurable: true });
      Object.defineProperty(ui.stdout, 'rows', { value: rows, configurable: true });
      ui.stdout.emit('resize');
    };
    const press = async (s: string) => {
      ui.stdin.write(s);
      await new Promise((r) => setImmediate(r));
    };
    await waitFrame((f) => f.includes('Welcome to linedesk'));
    resize(50, 10);
    await waitFrame((f) => f.includes(`needs at least ${MIN_COLUMNS}×${MIN_ROWS}`));
    await press('\r'); // would choose the sandbox
    expect(results).toEqual([]);
    resize(100, 24);
    await waitFrame((f) => f.includes('Welcome to linedesk'));
    resize(50, 10);
    await waitFrame((f) => f.includes('needs at least'));
    await press('q');
    expect(results).toEqual([{ kind: 'quit' }]);
  });
});
