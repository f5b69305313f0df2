import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClipboard } from '../../src/app/clipboard';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'ld-tmux-'));
const socket = join(dir, 'sock');
afterAll(() => {
  spawnSync('tmux', ['-S', socket, 'kill-server']);
  rmSync(dir, { recursive: true, force: true });
});

describe('copy where the user is', () => {
  it('outside tmux: OSC 52 to the terminal', async () => {
    const written: string[] = [];
    const r = await systemClipboard((d) => written.push(d), { PATH: process.env.PATH })('secret');
    expect(r).toEqual({ ok: true, via: "the terminal's clipboard (OSC 52)" });
    expect(written).toEqual([`\u001b]52;c;${Buffer.from('secret').toString('base64')}\u0007`]);
  });

  it.skipIf(!hasTmux)(
    'inside tmux: into tmux’s buffer (no passthrough needed), nothing written to the terminal',
    async () => {
      execFileSync('tmux', ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'ld']);
      const written: string[] = [];
      const env = { ...process.env, TMUX: `${socket},1,0` };
      const r = await systemClipboard((d) => written.push(d), env)('user\npass');
      expect(r.ok).toBe(true);
      expect(execFileSync('tmux', ['-S', socket, 'show-buffer'], { encoding: 'utf8' })).toBe('user\npass');
      expect(written).toEqual([]);
    },
  );

  it('inside tmux without a usable tmux: says nothing was copied, never "Copied"', async () => {
    const r = await systemClipboard(() => {}, { TMUX: '/nonexistent,1,0', PATH: dir })('x');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.why).toMatch(/tmux could not be run/);
  });
});
