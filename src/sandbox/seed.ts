import { randomBytes } from 'node:crypto';
import { addMonths } from '../domain/estimate';
import { DAY_MS } from '../domain/pricing';
import type { Db } from './db';
import { int, pick, prng, type Rng } from './prng';
import { hashKey, type LineRow, Repo } from './repo';

interface SeedOptions {
  /** Lines of the demo account. */
  readonly lines?: number;
  /** Opening credits of the demo account. */
  readonly credits?: number;
  readonly seed?: number;
  readonly now?: number;
  /** Fixed API keys (tests); random ones otherwise. */
  readonly demoKey?: string;
  readonly secondKey?: string;
}

const DEMO_EMAIL = 'demo@sandbox.linedesk';
const SECOND_EMAIL = 'second@sandbox.linedesk';

const PACKAGES: Array<[string, number, number, number, number, number]> = [
  // name, duration, is_trial, credits_cost, extra_connection_credits_cost, min_balance
  ['Premium 1 month', 1, 0, 1, 1, 1],
  ['Premium 3 months', 3, 0, 3, 2, 3],
  ['Premium 6 months', 6, 0, 5, 4, 5],
  ['Premium 12 months', 12, 0, 9, 7, 9],
  ['Trial 12 hours', 12, 1, 0, 0, 10],
  ['Trial 24 hours', 24, 1, 0, 0, 10],
  ['Trial 48 hours', 48, 1, 1, 0, 10],
];

const CHANNELS = [
  'UK Entertainment',
  'UK Sports',
  'UK News',
  'UK Kids',
  'UK Documentaries',
  'US Entertainment',
  'US Sports',
  'US News',
  'Canada',
  'Ireland',
  'France',
  'Germany',
  'Italy',
  'Spain',
  'Portugal',
  'Netherlands',
  'Poland',
  'Turkey',
  'Arabic',
  'India',
  'Pakistan',
  'Latino',
  'Caribbean',
  'Music',
  'Pay-Per-View Events',
];
const MOVIES = [
  'New Releases',
  'Action',
  'Comedy',
  'Drama',
  'Horror',
  'Family',
  'Documentaries',
  'Box Sets',
  'Classics',
  'Bollywood',
  'French Cinema',
  '4K Collection',
];
const FIRST = [
  'james',
  'olivia',
  'mohammed',
  'sofia',
  'liam',
  'amelia',
  'noah',
  'isla',
  'lucas',
  'mia',
  'omar',
  'chloe',
  'arjun',
  'zara',
  'daniel',
  'grace',
];
const LAST = [
  'smith',
  'khan',
  'murphy',
  'rossi',
  'garcia',
  'novak',
  'oconnor',
  'silva',
  'patel',
  'dubois',
  'jensen',
  'kowalski',
];
const LABELS = [
  'Living room',
  'Bedroom TV',
  'Kitchen',
  'Hotel room 204',
  'Bar screen',
  'Dad',
  'Grandma',
  'Office',
  'Caravan',
  'Shop front',
  'Kids room',
  'Holiday flat',
  '',
];

const newKey = () => `lds_${randomBytes(18).toString('base64url')}`;

/** Seeds a fresh database: packages, bouquets, the demo account with `lines` lines, a second account. */
export function seed(db: Db, opts: SeedOptions = {}): void {
  const rng = prng(opts.seed ?? 1);
  const now = opts.now ?? Date.now();
  const repo = new Repo(db);
  db.transaction(() => {
    const pkg = db.prepare(
      'INSERT INTO packages (package_name, duration, is_trial, credits_cost, extra_connection_credits_cost, min_balance) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const p of PACKAGES) pkg.run(...p);
    const bq = db.prepare('INSERT INTO bouquets (kind, label) VALUES (?, ?)');
    for (const c of CHANNELS) bq.run('channels', c);
    for (const m of MOVIES) bq.run('movies', m);
    const bouquetIds = (db.prepare('SELECT id FROM bouquets').all() as Array<{ id: number }>).map(
      (b) => b.id,
    );

    const demo = addAccount(db, DEMO_EMAIL, opts.credits ?? 1000, 'demo', opts.demoKey ?? newKey(), now);
    addLines(repo, rng, demo, opts.lines ?? 240, now, bouquetIds);
    const second = addAccount(db, SECOND_EMAIL, 250, 'second', opts.secondKey ?? newKey(), now);
    addLines(repo, rng, second, 25, now, bouquetIds);
  });
}

function addAccount(db: Db, email: string, credits: number, host: string, key: string, now: number): number {
  const { lastInsertRowid } = db
    .prepare(
      'INSERT INTO accounts (email, credits, opening_credits, hostname, mag_portal_url) VALUES (?, ?, ?, ?, ?)',
    )
    .run(
      email,
      credits,
      credits,
      `${host}.tv.sandbox.linedesk`,
      `http://${host}.tv.sandbox.linedesk/stalker_portal/c/`,
    );
  const id = Number(lastInsertRowid);
  db.prepare(
    'INSERT INTO api_keys (key_hash, key, account_id, label, created_at) VALUES (?, ?, ?, ?, ?)',
  ).run(hashKey(key), key, id, 'sandbox', now);
  return id;
}

const uuidFrom = (rng: Rng) => {
  const hex = Array.from({ length: 32 }, () => Math.floor(rng() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
const mac = (rng: Rng) =>
  `00:1A:79:${Array.from({ length: 3 }, () => int(rng, 0, 255).toString(16).padStart(2, '0').toUpperCase()).join(':')}`;

function addLines(repo: Repo, rng: Rng, accountId: number, count: number, now: number, bouquetIds: number[]) {
  const host = repo.account(accountId)!.hostname;
  for (let i = 0; i < count; i++) {
    const kind = rng();
    const trial = kind < 0.1;
    const created = now - int(rng, 1, 700) * DAY_MS - int(rng, 0, 86_399) * 1000;
    let exp: number;
    if (trial) exp = now + int(rng, -72, 40) * 3_600_000;
    else if (kind < 0.22)
      exp = now - int(rng, 1, 90) * DAY_MS; // expired
    else if (kind < 0.34)
      exp = now + int(rng, 1, 7 * 24 - 1) * 3_600_000; // expiring within 7 days
    else exp = addMonths(now, int(rng, 0, 11)) + int(rng, 8, 28) * DAY_MS;
    const start = trial ? exp - 24 * 3_600_000 : Math.max(created, addMonths(exp, -pick(rng, [1, 3, 6, 12])));
    const username =
      `${pick(rng, FIRST)}${pick(rng, LAST)}${String(i).padStart(4, '0')}${int(rng, 10, 99)}`.slice(0, 30);
    const row: LineRow = {
      id: uuidFrom(rng),
      account_id: accountId,
      username: username.length >= 12 ? username : username.padEnd(12, '0'),
      password: Array.from({ length: 16 }, () =>
        pick(rng, [...'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789']),
      ).join(''),
      label: pick(rng, LABELS),
      enabled: !trial && rng() < 0.1 ? 0 : 1,
      connections: trial ? 1 : pick(rng, [1, 1, 1, 1, 2, 2, 2, 3, 4, 5, 6]),
      is_trial: trial ? 1 : 0,
      exp_date: exp,
      start_date: start,
      created_at: Math.min(created, start),
      macaddress: rng() < 0.5 ? mac(rng) : null,
      parental_code: rng() < 0.3 ? String(int(rng, 0, 9999)).padStart(4, '0') : null,
      hostname: host,
    };
    const picks = bouquetIds.filter(() => rng() < 0.35);
    repo.insertLine(row, picks);
  }
}
