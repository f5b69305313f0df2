import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  CreateLineBody,
  CreateTrialBody,
  DeleteBody,
  ExtendBody,
  LineIdentification,
  ListLinesQuery,
  PackagesQuery,
  UpgradeBody,
} from '../api/contract';
import { addMonths } from '../domain/estimate';
import { randomCredential } from '../domain/line-form';
import { balanceNeeded, lineCost, upgradeCost } from '../domain/pricing';
import { JsonBody } from './line-json';
import type { AccountRow, LineRow, PackageRow, Repo } from './repo';

/** A refusal with the HTTP status and error body the sandbox answers with (see docs/sandbox.md). */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

export const STATUS = { insufficientBalance: 402, lineNotFound: 404, messageOnly: 409 } as const;

const requestErrors = (errors: Array<{ code: string; message: string; path: string[] }>) =>
  new Refusal(400, { code: 'request_errors', message: 'Invalid request', data: { errors } });
const lineNotFound = () =>
  new Refusal(STATUS.lineNotFound, { code: 'line_not_found', message: 'No line matches the identification' });

export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  throw requestErrors(
    r.error.issues.map((i) => ({ code: i.code, message: i.message, path: i.path.map(String) })),
  );
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function listForm(r: LineRow) {
  return {
    id: r.id,
    hostname: r.hostname,
    username: r.username,
    password: r.password,
    label: r.label,
    enabled: r.enabled === 1,
    connections: r.connections,
    is_trial: r.is_trial === 1,
    exp_date: iso(r.exp_date),
    start_date: iso(r.start_date),
    created_at: iso(r.created_at),
  };
}

const fullForm = (r: LineRow) => ({
  ...listForm(r),
  macaddress: r.macaddress,
  parental_code: r.parental_code,
});

function packageForm(p: PackageRow) {
  return { ...p, is_trial: p.is_trial === 1 };
}

/** The whole interface's behaviour, over the repository; the HTTP layer only routes and encodes. */
export class Service {
  constructor(
    readonly repo: Repo,
    readonly now: () => number = Date.now,
  ) {}

  me(acct: AccountRow) {
    return {
      email: acct.email,
      credits: acct.credits,
      lines_count: this.repo.linesCount(acct.id),
      server_information: { hostname: acct.hostname, mag_portal_url: acct.mag_portal_url },
    };
  }

  packages(query: unknown) {
    const q = validate(PackagesQuery, query);
    return { packages: this.repo.packages(q.type).map(packageForm) };
  }

  bouquets() {
    const all = this.repo.bouquets();
    const pick = (kind: string) => all.filter((b) => b.kind === kind).map(({ id, label }) => ({ id, label }));
    return { channels: pick('channels'), movies: pick('movies') };
  }

  /** A page as JSON text: the envelope around each line's list form, written by the repository. */
  list(acct: AccountRow, query: unknown): JsonBody {
    const q = validate(ListLinesQuery, query);
    const { total, lines } = this.repo.list(acct.id, q, this.now());
    const next = q.offset + lines.length < total ? q.offset + q.limit : null;
    const hasPrev = q.offset > 0;
    const envelope = JSON.stringify({
      offset: q.offset,
      limit: q.limit,
      totalHits: total,
      totalReturns: lines.length,
      hasNextPage: next !== null,
      hasPreviousPage: hasPrev,
      nextOffset: next,
      previousOffset: hasPrev ? Math.max(0, q.offset - q.limit) : null,
    });
    return new JsonBody(`${envelope.slice(0, -1)},"lines":[${lines.join(',')}]}`);
  }

  #creation(body: unknown, trial: boolean) {
    const b = trial ? validate(CreateTrialBody, body) : validate(CreateLineBody, body);
    const pkg = this.repo.packageFor(trial, b.duration);
    if (!pkg) throw new Refusal(STATUS.messageOnly, { message: 'Selected duration not available' });
    if (b.username !== undefined && this.repo.usernameTaken(b.username)) {
      throw new Refusal(STATUS.messageOnly, { message: 'Username already exists' });
    }
    const unknown = this.repo.unknownBouquets(b.bouquets ?? []);
    if (unknown.length) {
      throw requestErrors(
        unknown.map((id) => ({
          code: 'invalid_value',
          message: `Unknown bouquet ${id}`,
          path: ['bouquets', String((b.bouquets ?? []).indexOf(id))],
        })),
      );
    }
    const connections = trial ? 1 : ((b as { connections?: number }).connections ?? 1);
    return { b, pkg, connections, cost: lineCost(pkg, connections) };
  }

  simulateCreate(body: unknown, trial: boolean) {
    return { cost: this.#creation(body, trial).cost };
  }

  create(acct: AccountRow, body: unknown, trial: boolean) {
    const { b, pkg, connections, cost } = this.#creation(body, trial);
    const now = this.now();
    let username = b.username;
    while (username === undefined || this.repo.usernameTaken(username))
      username = `ld${randomCredential(12)}`;
    const row: LineRow = {
      id: randomUUID(),
      account_id: acct.id,
      username,
      password: b.password ?? randomCredential(16),
      label: b.label ?? '',
      enabled: b.enabled === false ? 0 : 1,
      connections,
      is_trial: trial ? 1 : 0,
      exp_date: trial ? now + pkg.duration * 3_600_000 : addMonths(now, pkg.duration),
      start_date: now,
      created_at: now,
      macaddress: b.macaddress ?? null,
      parental_code: b.parental_code ?? null,
      hostname: acct.hostname,
    };
    return this.#charged(acct, trial ? 'trial' : 'create', row.id, cost, balanceNeeded(cost, pkg), () =>
      this.repo.insertLine(row, b.bouquets ?? []),
    );
  }

  #line(
    acct: AccountRow,
    ident: { id?: string | undefined; username?: string | undefined; macaddress?: string | undefined },
  ) {
    const clean = Object.fromEntries(Object.entries(ident).filter(([, v]) => v !== undefined));
    const line = this.repo.findLine(acct.id, clean);
    if (!line) throw lineNotFound();
    return line;
  }

  extend(acct: AccountRow, body: unknown) {
    const b = validate(ExtendBody, body);
    const line = this.#line(acct, b);
    if (line.is_trial) {
      throw requestErrors([
        { code: 'invalid_value', message: 'Trial lines cannot be extended', path: ['id'] },
      ]);
    }
    const pkg = this.repo.packageFor(false, b.duration);
    if (!pkg) throw new Refusal(STATUS.messageOnly, { message: 'Selected duration not available' });
    const cost = lineCost(pkg, line.connections);
    const now = this.now();
    // An expired line is extended from now, a running one from its expiry.
    const from = Math.max(now, line.exp_date ?? now);
    return this.#charged(acct, 'extend', line.id, cost, balanceNeeded(cost, pkg), () =>
      this.repo.updateLine(line.id, { exp_date: addMonths(from, b.duration), start_date: now }),
    );
  }

  #upgradeQuote(acct: AccountRow, body: unknown) {
    const b = validate(UpgradeBody, body);
    const line = this.#line(acct, b);
    if (line.is_trial) {
      throw requestErrors([
        { code: 'invalid_value', message: 'Trial lines have one connection', path: ['new_connections'] },
      ]);
    }
    const monthly = this.repo.packageFor(false, 1);
    const cost = monthly
      ? upgradeCost(monthly, line.connections, b.new_connections, line.exp_date, this.now())
      : 0;
    return { b, line, cost };
  }

  simulateUpgrade(acct: AccountRow, body: unknown) {
    return { cost: this.#upgradeQuote(acct, body).cost };
  }

  upgrade(acct: AccountRow, body: unknown) {
    const { b, line, cost } = this.#upgradeQuote(acct, body);
    return this.#charged(acct, 'upgrade', line.id, cost, cost, () =>
      this.repo.updateLine(line.id, { connections: b.new_connections }),
    );
  }

  unsuspend(acct: AccountRow, body: unknown) {
    const line = this.#line(acct, validate(LineIdentification, body));
    if (!line.enabled) this.repo.updateLine(line.id, { enabled: 1 });
    return fullForm(this.repo.findLine(acct.id, { id: line.id })!);
  }

  delete(acct: AccountRow, body: unknown) {
    const line = this.#line(acct, validate(DeleteBody, body));
    this.repo.deleteLine(line.id);
    return { success: true };
  }

  /**
   * Check, deduct, apply and record in one synchronous transaction: no await can interleave, so the
   * balance can never go negative and every charge has exactly one ledger row.
   */
  #charged(
    acct: AccountRow,
    operation: string,
    lineId: string,
    cost: number,
    need: number,
    apply: () => void,
  ) {
    return this.repo.db.transaction(() => {
      let balance = this.repo.account(acct.id)!.credits;
      if (need > 0) {
        const after = this.repo.charge(acct.id, cost, need);
        if (after === null) {
          throw new Refusal(STATUS.insufficientBalance, {
            code: 'insufficient_balance',
            message: `Balance too low: ${balance} credits, ${need} needed`,
            balance,
            minBalance: need,
          });
        }
        balance = after;
        if (cost > 0) this.repo.addLedger(acct.id, this.now(), operation, lineId, cost, balance);
      }
      apply();
      const line = this.repo.findLine(acct.id, { id: lineId })!;
      return { line: fullForm(line), deducedCredits: cost, newBalance: balance };
    });
  }
}
