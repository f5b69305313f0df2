// npm run screenshots — the built app (npm run build first) on the embedded sandbox in a real
// pseudo-terminal, its frames read through a headless xterm, each screen written as an SVG into
// docs/screenshots/: text and colours from the terminal's cells, nothing drawn by hand. Deterministic
// enough to commit: the sandbox's seed, a 100×30 terminal, and a fixed clock (scripts/fixed-clock.mjs).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { type CommandId, command } from '../src/commands/keymap';
import { svgOf } from './screenshot-svg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUNDLE = join(ROOT, 'dist', 'linedesk.js');
const OUT = join(ROOT, 'docs', 'screenshots');
const SIZE = { cols: 100, rows: 30 };
const CLOCK = '2026-11-25T09:30:00.000Z';

const BYTES: Record<string, string> = { enter: '\r', escape: '\u001b', space: ' ' };
/** The bytes a terminal sends for a command's first key (keys pressed by id, as the tests do). */
const key = (id: CommandId) => {
  const k = command(id).keys[0]!;
  const bytes = BYTES[k] ?? (k.length === 1 ? k : undefined);
  if (bytes === undefined) throw new Error(`screenshots: no bytes for the key ${k} (${id})`);
  return bytes;
};

const dir = mkdtempSync(join(tmpdir(), 'linedesk-shots-'));
const configDir = join(dir, 'config');
mkdirSync(configDir, { recursive: true, mode: 0o700 });
// The welcome question answered ("try the sandbox"), as a first start would after Enter.
writeFileSync(
  join(configDir, 'config.json'),
  JSON.stringify({ version: 1, defaultProfile: null, profiles: {}, welcomed: true }),
  { mode: 0o600 },
);

const term = new xterm.Terminal({ ...SIZE, allowProposedApi: true });
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env))
  if (v !== undefined && k !== 'CI' && k !== 'NO_COLOR') env[k] = v;
const child = pty.spawn(process.execPath, ['--import', join(ROOT, 'scripts', 'fixed-clock.mjs'), BUNDLE], {
  ...SIZE,
  name: 'xterm-256color',
  env: {
    ...env,
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    FORCE_COLOR: '3',
    TZ: 'UTC',
    LINEDESK_CLOCK: CLOCK,
    LINEDESK_DATA_DIR: dir,
    LINEDESK_STATE_DIR: dir,
    LINEDESK_CONFIG_DIR: configDir,
  },
});
let wrote = 0;
child.onData((d) => {
  wrote++;
  term.write(d);
});

const screen = () => {
  const b = term.buffer.active;
  return Array.from(
    { length: term.rows },
    (_, i) => b.getLine(b.viewportY + i)?.translateToString(true) ?? '',
  ).join('\n');
};

/** Until the screen shows what `check` wants and has stopped changing (no frame for 400 ms). */
async function settle(check: (s: string) => boolean, what: string, timeout = 15_000): Promise<void> {
  const end = Date.now() + timeout;
  let seen = -1;
  let quietSince = Date.now();
  for (;;) {
    await new Promise<void>((r) => term.write('', r));
    if (wrote !== seen) {
      seen = wrote;
      quietSince = Date.now();
    }
    if (check(screen()) && Date.now() - quietSince >= 400) return;
    if (Date.now() > end) throw new Error(`screenshots: waited for ${what}; the screen is:\n${screen()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function shoot(name: string, title: string): void {
  writeFileSync(join(OUT, `${name}.svg`), svgOf(term, title));
  console.log(`docs/screenshots/${name}.svg`);
}

try {
  mkdirSync(OUT, { recursive: true });
  await settle((s) => s.includes('[SANDBOX]') && /1–\d+ of 240/.test(s), 'the lines browser');
  shoot('lines', 'linedesk: the lines browser');
  child.write(key('lines.open'));
  await settle((s) => s.includes('Password'), "a line's detail");
  shoot('detail', "linedesk: a line's detail, its diagnosis first");
  child.write(key('line.extend'));
  await settle((s) => /Extend/.test(s) && /balance/i.test(s), 'the extend dialog');
  shoot('extend', 'linedesk: the extend dialog, its cost and the balance after');
  child.write(key('app.back'));
  await settle((s) => !/balance after/i.test(s), 'the detail again');
  child.write(key('app.back'));
  await settle((s) => s.includes('USERNAME'), 'the browser again');
  child.write(key('app.help'));
  await settle((s) => s.includes('Keys — lines screen'), 'the help');
  shoot('help', 'linedesk: help, the keys that work here');
} finally {
  child.kill();
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}
process.exit(0);
