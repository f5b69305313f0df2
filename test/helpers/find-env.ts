import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { EMPTY_CONFIG, type Profile, saveConfig } from '../../src/app/config';
import { DEMO_KEY, sandbox } from './sandbox';

/** Keys that must never show: in a frame, a reason, an answer. */
export const DOWN_KEY = 'canary-down-key-5a5a5a5a';
export const WRONG_KEY = 'canary-wrong-key-7b7b7b7b';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length) await open.pop()!();
});

/** A loopback port nothing listens on (listened on once, then closed). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A server that takes connections and never answers (a host that hangs). */
export async function hungServer(): Promise<string> {
  const sockets = new Set<Socket>();
  const s: Server = createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  open.push(async () => {
    for (const sock of sockets) sock.destroy();
    await new Promise<void>((r) => s.close(() => r()));
  });
  return `http://127.0.0.1:${(s.address() as { port: number }).port}`;
}

/** Renames a line in a sandbox's database (the search index follows by trigger). */
export function rename(env: Awaited<ReturnType<typeof sandbox>>, offset: number, username: string) {
  const row = env.sb.repo.db
    .prepare('SELECT id FROM lines WHERE account_id = 1 ORDER BY id LIMIT 1 OFFSET ?')
    .get(offset) as { id: string };
  env.sb.repo.db.prepare('UPDATE lines SET username = ? WHERE id = ?').run(username, row.id);
  return { id: row.id, username };
}

/**
 * Two sandboxes as the profiles `alpha` and `beta`, a profile on a closed port (`down`) and one with
 * a wrong key (`wrongkey`, on alpha's service), in a temporary config file. `alpha` holds the line
 * "ticket-user-alpha1", `beta` the line "ticket-user-beta01" (a search for "ticket-user" finds both).
 */
export async function findEnv(extra: Record<string, Profile> = {}) {
  const alpha = await sandbox({ lines: 120, seed: 1 });
  const beta = await sandbox({ lines: 120, seed: 2 });
  const inAlpha = rename(alpha, 70, 'ticket-user-alpha1');
  const inBeta = rename(beta, 90, 'ticket-user-beta01');
  const configPath = join(mkdtempSync(join(tmpdir(), 'ld-find-')), 'config.json');
  saveConfig(
    {
      ...EMPTY_CONFIG,
      welcomed: true,
      defaultProfile: 'alpha',
      profiles: {
        alpha: { baseUrl: alpha.sb.baseUrl, apiKey: DEMO_KEY },
        beta: { baseUrl: beta.sb.baseUrl, apiKey: DEMO_KEY },
        down: { baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: DOWN_KEY },
        wrongkey: { baseUrl: alpha.sb.baseUrl, apiKey: WRONG_KEY },
        ...extra,
      },
    },
    configPath,
  );
  return { alpha, beta, inAlpha, inBeta, configPath };
}
