// npm run soak — the model-based money check over many schedules (SOAK_RUNS, default 500); the figures
// go to docs/RELIABILITY.md between its soak markers. A failure prints the schedule that broke it.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.env.SOAK_RUNS ?? 500);
const seed = Number(process.env.SOAK_SEED ?? Date.now() % 2_147_483_647);
const report = join(tmpdir(), `linedesk-soak-${process.pid}.json`);
const t0 = Date.now();
const r = spawnSync('npx', ['vitest', 'run', 'test/store/money.property.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, SOAK_RUNS: String(runs), SOAK_SEED: String(seed), SOAK_REPORT: report },
});
const minutes = ((Date.now() - t0) / 60_000).toFixed(1);
if (r.status !== 0) {
  console.error(`soak: FAILED (seed ${seed}); rerun with SOAK_SEED=${seed} to reproduce`);
  process.exit(1);
}
const f = JSON.parse(readFileSync(report, 'utf8'));
const table = [
  `Last run ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, seed ${seed}, ${minutes} min.`,
  '',
  '| schedules | lines charged | double charges | "not applied" reported | of them charged | journal total = ledger | unknown left after the network healed | charges of unknown amount |',
  '|---:|---:|---:|---:|---:|---|---:|---:|',
  `| ${f.schedules} | ${f.charges} | 0 | ${f.notApplied} | 0 | every schedule | ${f.checkedUnknownLeft} | ${f.unknownCharges} |`,
].join('\n');
const doc = 'docs/RELIABILITY.md';
const text = readFileSync(doc, 'utf8');
const start = '<!-- soak:start -->';
const end = '<!-- soak:end -->';
writeFileSync(
  doc,
  `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n${text.slice(text.indexOf(end))}`,
);
console.log(table);
