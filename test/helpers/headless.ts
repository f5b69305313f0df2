import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { HeadlessIo, OutStream } from '../../src/headless/output';
import { runHeadless } from '../../src/headless/run';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** Data, config and state directories of their own (the journal, the intent log), removed after the test. */
export function homeDirs(): {
  LINEDESK_DATA_DIR: string;
  LINEDESK_CONFIG_DIR: string;
  LINEDESK_STATE_DIR: string;
} {
  const root = mkdtempSync(join(tmpdir(), 'linedesk-headless-'));
  dirs.push(root);
  return {
    LINEDESK_DATA_DIR: join(root, 'data'),
    LINEDESK_CONFIG_DIR: join(root, 'config'),
    LINEDESK_STATE_DIR: join(root, 'state'),
  };
}

const collector = (tty: { isTTY?: boolean; columns?: number } = {}) => {
  const chunks: string[] = [];
  const stream: OutStream & { text: () => string } = {
    write: (s: string) => {
      chunks.push(s);
      return true;
    },
    ...tty,
    text: () => chunks.join(''),
  };
  return stream;
};

export interface RunOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly stdin?: string;
  readonly now?: () => number;
  readonly tty?: { readonly isTTY?: boolean; readonly columns?: number };
  readonly stderrTty?: boolean;
  readonly tune?: HeadlessIo['tune'];
}

/** `linedesk ARGV…` in this process, with its own streams: the exit code, stdout and stderr. */
export async function headless(argv: readonly string[], o: RunOptions = {}) {
  const stdout = collector(o.tty);
  const stderr = collector({ isTTY: o.stderrTty ?? false });
  const code = await runHeadless(argv, {
    stdout,
    stderr,
    stdin: (async function* () {
      if (o.stdin) yield o.stdin;
    })(),
    env: o.env ?? {},
    ...(o.now ? { now: o.now } : {}),
    // Checks after an unclear answer pause for seconds between rounds in real use.
    tune: o.tune ?? {
      sleep: () => new Promise((r) => setTimeout(r, 5)),
      client: { retry: { maxAttempts: 1 } },
    },
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** The environment of a command run against a sandbox (or a proxy in front of it), with its own dirs. */
export function envFor(baseUrl: string, apiKey: string, home = homeDirs()): NodeJS.ProcessEnv {
  return { ...home, LINEDESK_BASE_URL: baseUrl, LINEDESK_API_KEY: apiKey, NO_COLOR: '' };
}
