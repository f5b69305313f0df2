// npm run soak — the model-based money check over many schedules (SOAK_RUNS, default 500), then the
// interruption matrix (every way a running bulk job can end, through a real pty: SOAK_INTERRUPT_ROUNDS,
// default 2); the figures go to docs/RELIABILITY.md between their markers. SOAK_ONLY=money or
// SOAK_ONLY=interrupts runs one of the two. A failure prints what broke it.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const only = process.env.SOAK_ONLY ?? '';
const runs = Number(process.env.SOAK_RUNS ?? 500);
const seed = Number(process.env.SOAK_SEED ?? Date.now() % 2_147_483_647);
/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` in docs/RELIABILITY.md. */
function writeFigures(name, table) {
  const doc = 'docs/RELIABILITY.md';
  const text = readFileSync(doc, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  writeFileSync(
    doc,
    `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n${text.slice(text.indexOf(end))}`,
  );
  console.log(table);
}

if (only !== 'interrupts') money();
if (only !== 'money') interrupts();

function money() {
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
  writeFigures('soak', table);
}

function interrupts() {
  const rounds = Number(process.env.SOAK_INTERRUPT_ROUNDS ?? 2);
  const out = join(tmpdir(), `linedesk-interrupts-${process.pid}.json`);
  const t0 = Date.now();
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
  const r = spawnSync('npx', ['vitest', 'run', 'test/e2e/interrupt-matrix.e2e.test.ts'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      LINEDESK_SOAK_INTERRUPTS: '1',
      SOAK_INTERRUPT_ROUNDS: String(rounds),
      SOAK_INTERRUPT_REPORT: out,
    },
  });
  const minutes = ((Date.now() - t0) / 60_000).toFixed(1);
  if (r.status !== 0) {
    console.error('soak: the interruption matrix FAILED');
    process.exit(1);
  }
  const results = JSON.parse(readFileSync(out, 'utf8'));
  // One row per way and schedule: interrupted while running, then during the read again.
  const label = (x) => (x.schedule === 'reading' ? `${x.way}, during the read again` : x.way);
  const ways = [...new Set(results.map(label))];
  const rows = ways.map((way) => {
    const of = results.filter((x) => label(x) === way);
    const sum = (f) => of.reduce((n, x) => n + f(x), 0);
    const charges = of.flatMap((x) => x.chargesPerLine);
    return `| ${way} | ${of.length} | ${sum((x) => x.lines)} | ${sum((x) => x.sentBefore)} | ${sum((x) => x.offered)} | ${sum((x) => x.marked)} | ${charges.filter((c) => c === 1).length} | ${sum((x) => x.uncertain)} | ${charges.filter((c) => c > 1).length + sum((x) => x.unaccounted) + sum((x) => x.stray)} |`;
  });
  writeFigures(
    'soak-interrupts',
    [
      `Last run ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${rounds} round${rounds === 1 ? '' : 's'}, ${minutes} min.`,
      '',
      '| how the job ended | runs | lines | sent before | offered as never sent | marked again | charged once | open, uncharged (cut by the kill) | charged twice, dropped in silence, or stray |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n'),
  );
}
