/**
 * The app's start reads the config once (app/run.tsx) and passes it on: the files of the account
 * (hold window, templates, other profiles, problems), the settings and the store built on them read
 * it no more. The file is read again only to save a setting (which reads it first, so nothing newer
 * is overwritten) — counted on the file system.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readConfig } from '../../src/app/config';
import type { Connection } from '../../src/app/connection';
import { fileDeps } from '../../src/app/connection';
import { createLog } from '../../src/app/log';
import { createAppStore } from '../../src/store/app-store';
import { homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const reads = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock('node:fs', async (original) => {
  const m = await original<typeof import('node:fs')>();
  const readFileSync = ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (typeof path === 'string') reads.paths.push(path);
    return (m.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof m.readFileSync;
  return { ...m, default: { ...m, readFileSync }, readFileSync };
});

describe('the app reads the config once at start', () => {
  it('the files, the settings and the store take the config read at start; a save reads it again', async () => {
    const env = await sandbox({ lines: 5 });
    const home = homeDirs();
    fs.mkdirSync(home.LINEDESK_CONFIG_DIR, { recursive: true, mode: 0o700 });
    const path = join(home.LINEDESK_CONFIG_DIR, 'config.json');
    fs.writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        defaultProfile: 'shop',
        profiles: { shop: { baseUrl: env.sb.baseUrl, apiKey: DEMO_KEY } },
        holdMinutes: 15,
        renewals: { withinDays: 12, expiredDays: 20 },
        lowBalance: {},
        noteColumn: true,
      }),
      { mode: 0o600 },
    );
    const counted = () => reads.paths.filter((p) => p === path).length;
    reads.paths = [];
    const config = readConfig(path);
    const conn: Connection = {
      client: env.client,
      profile: 'shop',
      target: { id: `${env.sb.baseUrl}#x`, kind: 'remote', label: 'shop', baseUrl: env.sb.baseUrl },
      close: async () => {},
    };
    const log = createLog(join(home.LINEDESK_STATE_DIR, 'linedesk.log'));
    const files = fileDeps(conn, log, { dataDir: home.LINEDESK_DATA_DIR, configPath: path, config });
    expect(files.holdMs).toBe(15 * 60_000);
    const store = createAppStore({ client: env.client, target: conn.target, ...files });
    await store.getState().start();
    expect(store.getState().renewalsWindow).toEqual({ withinDays: 12, expiredDays: 20 });
    expect(store.getState().noteColumn).toBe(true);
    expect(counted()).toBe(1);
    // A save reads the file (so another linedesk's change is kept), then answers from what it wrote.
    store.getState().setLowBalance(300);
    const afterSave = counted();
    expect(afterSave).toBeGreaterThan(1);
    expect(files.settings.read().lowBalance).toBe(300);
    expect(counted()).toBe(afterSave);
    expect(readConfig(path).config?.lowBalance).toEqual({ [conn.target.id]: 300 });
    await store.getState().shutdown(0);
  });
});
