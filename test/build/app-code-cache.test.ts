/**
 * The app's own code cache (issue #27, scripts/cached-script.mjs, src/app/run.tsx): the app's path is
 * one script whose V8 code cache is kept as it is after the first frame with data, so a warm start
 * compiles almost none of the functions its first frame calls. It is made at the first idle moment
 * after that frame (not when the app exits hours later), and must be made with the flags the process
 * started with: V8 rejects a cache stamped with other flags, and the app sets its memory flags as it
 * runs (app/memory.ts); a rejected cache would be made again at every start.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { command } from '../../src/commands/keymap';
import { keyBytes } from '../helpers/app';
import { BUNDLE } from '../helpers/bundle';
import { spawnApp } from '../helpers/pty';

const sessions: Array<{ cleanup: () => void }> = [];
const dirs: string[] = [];
afterEach(() => {
  while (sessions.length) sessions.pop()!.cleanup();
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** The app's caches under a compile-cache directory (Node makes one subdirectory per version). */
const caches = (dir: string) => {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => /(^|\/)linedesk-ui-[0-9a-f]{16}-[a-z-]+$/.test(f))
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
};

const quit = keyBytes(command('app.backOrQuit').keys[0]!);

describe("the app's code cache", () => {
  it('is made once the first frame with data is drawn and the app is idle, then taken as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linedesk-app-cache-'));
    dirs.push(dir);
    // This build's cache under the name the app's once had (`other`: it was named by an argv the
    // app is not given): it goes when the cache is written under its own name.
    const sub = execFileSync(
      process.execPath,
      ['-p', "process.getBuiltinModule('node:module').getCompileCacheDir()"],
      { env: { ...process.env, NODE_COMPILE_CACHE: dir }, encoding: 'utf8' },
    ).trim();
    const key = /linedesk-ui-[0-9a-f]{16}/.exec(readFileSync(join(BUNDLE, '../chunks/ui.js'), 'utf8'))![0];
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `${key}-other`), 'old');
    const first = spawnApp([], { NODE_COMPILE_CACHE: dir });
    sessions.push(first);
    await first.waitFor((s) => /1–\d+ of 240/.test(s));
    // Made while the app runs, with no key pressed: the first idle moment after the data; one,
    // named for the app.
    await vi.waitFor(() => expect(caches(dir)).toEqual([join(sub, `${key}-app`)]), {
      timeout: 10_000,
      interval: 25,
    });
    const [file] = caches(dir);
    first.write(keyBytes(command('lines.pageNext').keys[0]!));
    await first.waitFor((s) => /of 240/.test(s) && !/1–\d+ of 240/.test(s));
    first.write(quit);
    await first.waitFor((s) => s.includes('again to quit'));
    first.write(quit);
    await first.waitExit();
    expect(first.exitCode()).toBe(0);
    const bytes = readFileSync(file!);
    const mtime = statSync(file!).mtimeMs;

    // The next start takes it: a cache V8 rejected (made under other flags) would be made again,
    // at the idle moment or at the latest on a clean quit.
    const second = spawnApp([], { NODE_COMPILE_CACHE: dir });
    sessions.push(second);
    await second.waitFor((s) => /1–\d+ of 240/.test(s));
    second.write(quit);
    await second.waitFor((s) => s.includes('again to quit'));
    second.write(quit);
    await second.waitExit();
    expect(second.exitCode()).toBe(0);
    expect(caches(dir)).toEqual([file]);
    expect(statSync(file!).mtimeMs).toBe(mtime);
    expect(readFileSync(file!).equals(bytes)).toBe(true);
  });
});
