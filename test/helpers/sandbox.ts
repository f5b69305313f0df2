import { request } from 'undici';
import { afterEach } from 'vitest';
import { type ApiClient, createClient } from '../../src/api/client';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index';

export const DEMO_KEY = 'test-demo-key-0123456789';
export const SECOND_KEY = 'test-second-key-0123456789';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length) await open.pop()!();
});

/** An in-memory sandbox on a loopback port, and clients for both accounts; closed after the test. */
export async function sandbox(opts: SandboxOptions = {}): Promise<{
  sb: Sandbox;
  client: ApiClient;
  second: ApiClient;
  raw: (
    method: string,
    path: string,
    body?: string,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; json: unknown; headers: Record<string, unknown> }>;
}> {
  const sb = await startSandbox({
    db: ':memory:',
    lines: 60,
    demoKey: DEMO_KEY,
    secondKey: SECOND_KEY,
    ...opts,
  });
  const client = createClient({ baseUrl: sb.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  const second = createClient({ baseUrl: sb.baseUrl, apiKey: SECOND_KEY, retry: { maxAttempts: 1 } });
  open.push(async () => {
    await client.close();
    await second.close();
    await sb.close();
  });
  /** A request that bypasses the client's own validation: for the server's bad-input battery. */
  const raw = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const res = await request(`${sb.baseUrl}${path}`, {
      method: method as 'GET',
      headers: {
        'x-api-key': DEMO_KEY,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.statusCode, json, headers: res.headers as Record<string, unknown> };
  };
  return { sb, client, second, raw };
}

/** Balance and ledger straight from the sandbox's database. */
export function books(sb: Sandbox, email = 'demo@sandbox.linedesk') {
  const acct = sb.repo.accounts().find((a) => a.email === email)!;
  const ledger = sb.repo.ledger(acct.id);
  return {
    balance: acct.credits,
    opening: acct.opening_credits,
    ledger,
    spent: ledger.reduce((s, r) => s + r.amount, 0),
  };
}

/** How many charges each line has in the sandbox's ledger (a line charged twice shows 2). */
export function chargesPerLine(sb: Sandbox, email?: string): Map<string, number> {
  const per = new Map<string, number>();
  for (const r of books(sb, email).ledger) per.set(r.line_id, (per.get(r.line_id) ?? 0) + 1);
  return per;
}
