import type { AddressInfo } from 'node:net';
import { openDb } from './db';
import { type FaultSpec, Faults, NO_FAULTS } from './faults';
import type { ListTuning } from './lists';
import { RateLimiter } from './rate-limit';
import { Repo } from './repo';
import { seed } from './seed';
import { createSandboxServer } from './server';
import { Service } from './service';

export { SandboxUnavailableError } from './db';

export interface SandboxOptions {
  /** A file path, or ':memory:' (tests). */
  readonly db?: string;
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Shape the demo account of a new database. */
  readonly lines?: number;
  readonly credits?: number;
  readonly seed?: number;
  /** Requests per second per key sustained (bursts of twice that); 0 = off. */
  readonly rateLimit?: number;
  readonly faults?: FaultSpec;
  readonly now?: () => number;
  readonly demoKey?: string;
  readonly secondKey?: string;
  readonly log?: (line: string) => void;
  /** Tests: list thresholds small enough that every path runs on a few hundred lines. */
  readonly listTuning?: ListTuning;
}

interface SandboxAccount {
  readonly email: string;
  readonly apiKey: string;
  readonly credits: number;
}

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Opens (and seeds, when new) the database and listens; the demo account comes first. */
export async function startSandbox(opts: SandboxOptions = {}) {
  const db = await openDb(opts.db ?? ':memory:');
  const now = opts.now ?? Date.now;
  const repo = new Repo(db, opts.listTuning);
  if (repo.accounts().length === 0) {
    seed(db, {
      lines: opts.lines ?? 240,
      credits: opts.credits ?? 1000,
      seed: opts.seed ?? 1,
      now: now(),
      ...(opts.demoKey ? { demoKey: opts.demoKey } : {}),
      ...(opts.secondKey ? { secondKey: opts.secondKey } : {}),
    });
  }
  const service = new Service(repo, now);
  const limiter = new RateLimiter(opts.rateLimit ?? 0);
  const faults = new Faults(opts.faults ?? NO_FAULTS);
  const server = createSandboxServer({ service, repo, limiter, faults, log: opts.log ?? (() => {}) });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const accounts = (): SandboxAccount[] =>
    repo.accounts().map((a) => ({ email: a.email, apiKey: a.key, credits: a.credits }));
  return {
    baseUrl: `http://${hostPart}:${port}`,
    accounts,
    repo,
    service,
    faults,
    limiter,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      db.close();
    },
  };
}
