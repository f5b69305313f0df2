import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CommandId, command } from '../../src/commands/keymap';
import { keyBytes } from '../helpers/app';
import { spawnApp } from '../helpers/pty';

const key = (id: CommandId) => keyBytes(command(id).keys[0]!);
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** Every OSC 52 clipboard write in the raw output, decoded. */
const osc52Writes = (raw: string) =>
  [...raw.matchAll(/\u001b\]52;c;([A-Za-z0-9+/=]*)\u0007/g)].map((m) =>
    Buffer.from(m[1]!, 'base64').toString('utf8'),
  );

describe('customer messages in a real terminal', () => {
  it('a template from the config, copied for a line: OSC 52 carries exactly the filled message', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'linedesk-e2e-config-'));
    cleanups.push(() => rmSync(configDir, { recursive: true, force: true }));
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const config = {
      version: 1,
      defaultProfile: null,
      profiles: {},
      welcomed: true,
      templates: [
        // Replaces the first default, so it is the one under the picker's cursor.
        {
          id: 'details',
          name: 'E2E details',
          body: 'Hi {USERNAME}!\n\tPassword: {PASSWORD}\nLabel: {LABEL}',
        },
        { id: 'broken', name: 'Broken', body: 'Hi {NAME}' },
      ],
    };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    // Outside tmux the copy goes out as OSC 52 on stdout.
    const app = spawnApp([], { LINEDESK_CONFIG_DIR: configDir, TMUX: '' }, { cols: 80, rows: 24 });
    cleanups.push(() => app.cleanup());
    await app.waitFor((s) => /of 240/.test(s));
    // The refused template is named at start.
    await app.waitFor((s) => s.includes('Template "broken": unknown placeholder {NAME}'));
    app.write(key('lines.open'));
    await app.waitFor((s) => s.includes('Password'));
    app.write(key('detail.password'));
    await app.waitFor((s) => !s.includes('•'));
    const field = (name: string) => new RegExp(`^\\s*${name}\\s+(\\S.*?)\\s*$`, 'm').exec(app.screen())![1]!;
    const username = field('Username');
    const password = field('Password');
    const label = field('Label');
    app.write(key('detail.copy'));
    await app.waitFor((s) => s.includes('Copy to the clipboard'));
    app.write(key('copy.message'));
    await app.waitFor((s) => s.includes('› E2E details') && s.includes(`Hi ${username}!`));
    app.write(key('message.pick'));
    await app.waitFor((s) => s.includes('Copied the "E2E details" message'));
    expect(osc52Writes(app.output())).toEqual([
      `Hi ${username}!\n\tPassword: ${password}\nLabel: ${label === '—' ? '' : label}`,
    ]);
  });
});
