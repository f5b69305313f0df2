import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { type CommandId, command } from '../../src/commands/keymap';
import { keyBytes } from '../helpers/app';
import { spawnSandbox } from '../helpers/bundle';
import { closedPort } from '../helpers/find-env';
import { spawnApp } from '../helpers/pty';

const key = (id: CommandId) => keyBytes(command(id).keys[0]!);
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe(':find in the built app', () => {
  it('finds a line in another profile; Enter switches to that profile with the line open; no key on screen', async () => {
    const { child, info } = await spawnSandbox(['--lines', '40']);
    cleanups.push(() => child.kill());
    const [demo, second] = info.accounts as [(typeof info.accounts)[0], (typeof info.accounts)[0]];
    const client = createClient({ baseUrl: info.baseUrl, apiKey: second.apiKey });
    cleanups.push(() => client.close());
    const target = (await client.listLines({ offset: 10, limit: 1 })).lines[0]!;
    const downKey = 'canary-e2e-down-key-3c3c3c';
    const configDir = join(mkdtempSync(join(tmpdir(), 'ld-find-e2e-')), 'config');
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const config = {
      version: 1,
      defaultProfile: 'one',
      welcomed: true,
      profiles: {
        one: { baseUrl: info.baseUrl, apiKey: demo.apiKey },
        two: { baseUrl: info.baseUrl, apiKey: second.apiKey },
        down: { baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: downKey },
      },
    };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    const app = spawnApp([], { LINEDESK_CONFIG_DIR: configDir }, { cols: 110, rows: 30 });
    cleanups.push(app.cleanup);
    const host = new URL(info.baseUrl).host;

    await app.waitFor((s) => s.includes(demo.email) && s.includes('USERNAME'));
    app.write(key('app.palette'));
    app.write(`find ${target.username}`);
    await app.waitFor((s) => s.includes(`:find ${target.username}`));
    app.write(key('palette.run'));
    await app.waitFor(
      (s) => s.includes(`── two · ${host}: 1 match`) && s.includes('── down') && !s.includes('searching…'),
    );
    expect(app.screen()).toMatch(/── down · [^\n]*failed: unreachable/);
    expect(app.screen()).toContain(`── one · ${host} (in use): no match`);
    app.write(key('find.open'));
    // A new pass on profile "two", the line's detail open once its first page is in.
    await app.waitFor(
      (s) => s.includes(second.email) && s.includes(`two · ${host}`) && s.includes('Diagnosis'),
    );
    expect(app.screen()).toContain(target.id);
    app.write(key('app.quit'));
    await app.waitExit();
    expect(app.exitCode()).toBe(0);
    for (const k of [demo.apiKey, second.apiKey, downKey]) expect(app.output()).not.toContain(k);
  }, 60_000);
});
