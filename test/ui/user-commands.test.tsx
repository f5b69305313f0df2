/**
 * Your keys and your own commands in the app (issue 28, part 7): a command of yours runs its program
 * on the line under the cursor or the marked lines, the line's fields in its environment, its
 * output in a pager view that Esc closes; a run over several lines asks first; a remapped key is
 * the one the footer, help and dispatch use; what the config left out is said at start and listed
 * by `:run`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runProgram } from '../../src/app/run-program';
import { COMMANDS, keyLabel, lookup } from '../../src/commands/keymap';
import { applyUserKeys, resetUserKeys, userKeysNotice } from '../../src/commands/user-keys';
import { resolveKey } from '../../src/keys/dispatch';
import { memoryNotes } from '../../src/services/notes';
import type { AppState } from '../../src/store/app-store';
import { selectCurrentLine } from '../../src/store/lines-slice';
import { selectDialog, selectScreen } from '../../src/store/view-stack';
import { footerItems } from '../../src/ui/layout/Footer';
import { keyBytes, renderApp } from '../helpers/app';
import { sandbox } from '../helpers/sandbox';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-user-cmd-'));
});
afterEach(() => {
  resetUserKeys();
  rmSync(dir, { recursive: true, force: true });
});

const ready = (f: string) => /\d+–\d+ of \d+/.test(f);
const HOSTILE_NOTE = `call "Ann" $(touch ${'/tmp'}/ld-pwned) \`id\` '; rm -rf ~ #`;

/** The program of the tests: appends the line's environment to a file, one JSON a run, and says so. */
function recorder(): { program: string; args: string[]; seen: () => Record<string, string>[] } {
  const out = join(dir, 'runs.jsonl');
  const file = join(dir, 'record.cjs');
  writeFileSync(
    file,
    `const e = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('LINEDESK_')));
require('fs').appendFileSync(${JSON.stringify(out)}, JSON.stringify(e) + '\\n');
console.log('sent to ' + e.LINEDESK_USERNAME);
console.log('long ' + 'x'.repeat(230) + ' END');
console.log('── forged: exit 0');`,
  );
  return {
    program: process.execPath,
    args: [file],
    seen: () => {
      try {
        return readFileSync(out, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l));
      } catch {
        return [];
      }
    },
  };
}

/** The app with the config's keys and commands applied, as a start applies them. */
async function start(config: { keys?: unknown; commands?: unknown }) {
  const env = await sandbox({ lines: 40 });
  const page = await env.client.listLines({ limit: 100 });
  const notes = memoryNotes(
    Object.fromEntries(
      page.lines.map((l) => [
        l.id,
        { name: 'Ann', phone: '+44 7700 900123', text: HOSTILE_NOTE, updatedAt: '' },
      ]),
    ),
  );
  const userKeys = applyUserKeys(config, 'config.json');
  const app = await renderApp(
    {},
    { notes, userKeys, runProgram, startProblems: userKeysNotice(userKeys.problems) },
    env,
  );
  await app.waitFrame(ready);
  return app;
}

describe('a command of yours', () => {
  it('on the line under the cursor: its fields in the environment exactly, its output in a pager, Esc back', async () => {
    const rec = recorder();
    const app = await start({
      commands: [
        { name: 'wa', key: 'W', scope: 'line', program: rec.program, args: rec.args, label: 'WhatsApp' },
      ],
    });
    const s = app.store.getState();
    const line = selectCurrentLine(s)!;
    app.ui.stdin.write('W');
    await app.waitFrame((f) => f.includes(`sent to ${line.username}`) && f.includes('exit 0'));
    expect(selectDialog(app.store.getState())).toBe('output');
    expect(app.frame()).toContain(`── ${line.username}: exit 0`);
    // Only the run's own heading is one: a program printing a heading's text stays its output.
    const rows = app.store.getState().userRun?.rows ?? [];
    expect(rows).toContainEqual({ heading: `── ${line.username}: exit 0`, ok: true });
    expect(rows).toContain('── forged: exit 0');
    // A long line wraps: its end is on screen, not cut off.
    expect(app.frame()).toContain('x END');
    const [run] = rec.seen();
    expect(run!.LINEDESK_USERNAME).toBe(line.username);
    expect(run!.LINEDESK_ID).toBe(line.id);
    expect(run!.LINEDESK_PASSWORD).toBe(line.password);
    expect(run!.LINEDESK_NOTE).toBe(HOSTILE_NOTE);
    expect(run!.LINEDESK_NOTE_PHONE).toBe('+44 7700 900123');
    expect(run!.LINEDESK_SERVICE).toBe('SANDBOX');
    expect(run!.LINEDESK_API_KEY).toBeUndefined();
    await app.press('output.close');
    await app.waitFrame((f) => ready(f) && !f.includes('sent to'));
    expect(selectDialog(app.store.getState())).toBeNull();
    expect(selectCurrentLine(app.store.getState())?.id).toBe(line.id);
  });

  it('on the marks: asks first naming the lines (an Enter typed ahead is dropped), runs once per line on Enter', async () => {
    const rec = recorder();
    const app = await start({
      commands: [{ name: 'crm', key: 'ctrl+k', scope: 'marks', program: rec.program, args: rec.args }],
    });
    await app.press('lines.mark');
    await app.press('lines.down');
    await app.press('lines.mark');
    await app.waitFrame(() => app.store.getState().marked.size === 2);
    const names = [...app.store.getState().marked.values()].map((m) => m.username);
    await app.press('lines.marks');
    await app.waitFrame(() => selectScreen(app.store.getState()).id === 'marks');
    // Its key and Enter in one read (SSH, a slip): the question shows, the Enter is dropped unread.
    app.ui.stdin.write(`${keyBytes('ctrl+k')}${keyBytes('enter')}`);
    await app.waitFrame((f) => f.includes('once for each of 2 lines') && f.includes('typed ahead'));
    for (const n of names) expect(app.frame()).toContain(n);
    expect(rec.seen()).toEqual([]);
    expect(app.store.getState().userRun?.phase).toBe('confirm');
    await app.confirm('output.run');
    await app.waitFrame((f) => f.includes('(2 of 2): exit 0') && f.includes('done'));
    const runs = rec.seen();
    expect(runs.map((r) => r.LINEDESK_USERNAME)).toEqual(names);
    expect(runs.map((r) => `${r.LINEDESK_INDEX}/${r.LINEDESK_COUNT}`)).toEqual(['1/2', '2/2']);
    // Not a key of the lines browser: its scope is the marks view.
    expect(lookup('lines', 'ctrl+k')).toBeUndefined();
  });
});

describe('a command of yours still running', () => {
  it('Esc closes its pager and ends the program', async () => {
    const pidFile = join(dir, 'pid');
    const file = join(dir, 'hang.cjs');
    writeFileSync(
      file,
      `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
    );
    const app = await start({
      commands: [
        {
          name: 'hang',
          key: 'W',
          scope: 'line',
          program: process.execPath,
          args: [file],
          timeoutSeconds: 600,
        },
      ],
    });
    app.ui.stdin.write('W');
    await app.waitFrame((f) => f.includes('running, 0 of 1 done'));
    // The file may be there before its number is: wait for the number (0 would signal our own group).
    const pid = await vi.waitFor(
      () => {
        const n = Number(readFileSync(pidFile, 'utf8'));
        if (!(n > 0)) throw new Error('no pid yet');
        return n;
      },
      { timeout: 5000, interval: 10 },
    );
    await app.press('output.close');
    await app.waitFrame((f) => ready(f) && !f.includes('running'));
    await vi.waitFor(
      () => {
        expect(() => process.kill(pid, 0)).toThrow();
      },
      { timeout: 5000, interval: 20 },
    );
  });
});

describe('keys of yours', () => {
  it('a remapped key is the one the footer shows, help lists and dispatch runs; the old one does nothing', async () => {
    const app = await start({ keys: { 'line.delete': 'D', 'app.help': 'H' } });
    const s = app.store.getState();
    const footer = footerItems(s).map((h) => h.text);
    expect(footer).toContain('D delete');
    expect(footer).toContain('H help');
    expect(footer.some((t) => /^[d?] /.test(t))).toBe(false);
    for (const text of footer) {
      const label = text.split(' ')[0]!;
      const key = ['D', 'H', ...COMMANDS.flatMap((c) => c.keys)].find(
        (k) => keyLabel(k) === label && resolveKey(s as AppState, k),
      );
      expect(key, `footer "${text}" is a key dispatch runs`).toBeDefined();
    }
    app.ui.stdin.write('d');
    app.ui.stdin.write('?');
    await app.press('lines.down');
    await app.waitFrame(() => app.store.getState().cursor === 1);
    expect(selectDialog(app.store.getState())).toBeNull();
    await app.press('app.help');
    await app.waitFrame((f) => f.includes('Keys — lines screen'));
    expect(app.frame()).toMatch(/\sD\s+Delete/);
    expect(app.frame()).not.toMatch(/\sd\s+Delete/);
    await app.press('help.close');
    await app.press('line.delete');
    await app.waitFrame(() => selectDialog(app.store.getState()) === 'action');
  });

  it('what the config left out is said at start and listed by :run; the rest is applied', async () => {
    const app = await start({
      keys: { 'line.explode': 'X', 'line.extend': 'u' },
      commands: [
        { name: 'wa', key: 'W', scope: 'line', program: 'wa-send' },
        { name: 'Bad Name' },
        { name: 'crm', scope: 'line', program: 'crm-sync', label: 'Sync to the CRM' },
      ],
    });
    await app.waitFrame((f) => f.includes('(and 2 more); :run shows the list'));
    await app.press('app.palette');
    await app.type('run');
    await app.press('palette.run');
    await app.waitFrame((f) => f.includes('Left out of the config'));
    const f = app.frame();
    expect(f).toContain('wa (W, on the line): Run wa');
    expect(f).toContain('keys.line.explode: no command of that id');
    expect(f).toMatch(/keys\.line\.extend: u is line\.upgrade's key in lines/);
    expect(f).toContain('commands[1] ("Bad Name"): name:');
    expect(lookup('lines', 'W')?.id).toBe('user.wa');
    // Help lists the one with no key by how it runs, after the screen's keys.
    await app.press('output.close');
    await app.press('app.help');
    await app.waitFrame((f) => f.includes('Keys —'));
    for (let page = 0; page < 8 && !app.frame().includes(':run crm'); page++)
      await app.press('help.pageDown');
    await app.waitFrame(
      (f) => /:run crm\s+Sync to the CRM/.test(f) && f.includes('Your commands with no key'),
    );
  });
});
