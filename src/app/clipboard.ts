import type { CopyResult } from '../services/clipboard';
import { osc52 } from './terminal';

/**
 * Copies where the user is. Inside tmux, `tmux load-buffer -w -` puts the text in tmux's buffer and
 * (with -w) sends it on to the outer terminal's clipboard; OSC 52 wrapped for passthrough is dropped
 * by tmux's default `allow-passthrough off`, so it is not relied on there. Elsewhere OSC 52 (works
 * over SSH). A terminal does not answer OSC 52, so "sent" is all that can be said of it.
 */
export function systemClipboard(
  write: (data: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): (text: string) => Promise<CopyResult> {
  return (text) => {
    if (!env.TMUX) {
      write(osc52(text, env));
      return Promise.resolve({ ok: true, via: "the terminal's clipboard (OSC 52)" });
    }
    return new Promise<CopyResult>((resolve) => {
      // Loaded here, not at start: child_process (and dgram with it) is ≈ 1–2 ms of every app start.
      const { spawn } = process.getBuiltinModule('node:child_process');
      const child = spawn('tmux', ['load-buffer', '-w', '-'], { stdio: ['pipe', 'ignore', 'ignore'], env });
      const timer = setTimeout(() => child.kill(), 2_000);
      child.on('error', (err) => {
        clearTimeout(timer);
        resolve({
          ok: false,
          why: `tmux could not be run (${(err as NodeJS.ErrnoException).code ?? err.message})`,
        });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve(
          code === 0
            ? { ok: true, via: "tmux's buffer and the terminal's clipboard" }
            : { ok: false, why: `tmux load-buffer failed (exit ${code})` },
        );
      });
      child.stdin.end(text);
    });
  };
}
