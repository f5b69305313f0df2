#!/usr/bin/env node
/**
 * A small mutation check of the money guards (issue 23, item 8): each mutation below removes or
 * bends one guard in engine.ts, the change service (service.ts), proof.ts or paste.ts; the test files named with it
 * are run, and a mutation that no test fails "survives". One at a time; the file is always put back.
 *   node scripts/mutate.mjs            every mutation
 *   node scripts/mutate.mjs E1 P2      only those
 * Exit 1 when any survives (or a mutation's text is no longer found: the list needs updating).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const ENGINE = 'src/services/changes/engine.ts';
const SLICE = 'src/services/changes/service.ts';
const PROOF = 'src/domain/proof.ts';
const PASTE = 'src/keys/paste.ts';
const GUARD_TESTS = ['test/store/intent-guard.test.ts'];
const PROOF_TESTS = ['test/domain/proof.test.ts'];
const PASTE_TESTS = ['test/keys/paste-timeout.test.ts'];

/** [id, file, what it breaks, from, to, tests] */
const MUTATIONS = [
  [
    'E1',
    ENGINE,
    'a failed `sending` write is not rethrown',
    'this.#restore(next.id, prev);\n        throw err;',
    'this.#restore(next.id, prev);',
    GUARD_TESTS,
  ],
  [
    'E2',
    ENGINE,
    'the line is not put back when `sending` fails',
    'this.#restore(next.id, prev);\n',
    '',
    GUARD_TESTS,
  ],
  [
    'E3',
    ENGINE,
    'sendOne goes on after a failed `sending` write',
    '        provenNotApplied: true,\n      });\n      return;\n    }\n    const line = state.get(id);',
    '        provenNotApplied: true,\n      });\n    }\n    const line = state.get(id);',
    GUARD_TESTS,
  ],
  [
    'C1',
    SLICE,
    'the change service swallows a failed `sending` write',
    "if (l.state === 'sending') throw err;",
    '',
    GUARD_TESTS,
  ],
  [
    'P1',
    PROOF,
    'an unreadable balance now is read as 0',
    'if (job.balanceBefore == null || balanceNow == null) return null;',
    'if (job.balanceBefore == null) return null;',
    PROOF_TESTS,
  ],
  [
    'P2',
    PROOF,
    'an unreadable balance: no change on the line is "not applied"',
    "      settle(l, {\n        state: 'unknown',\n        detail: 'still unknown: the balance could not be compared, so no change on the line proves nothing',\n      });",
    '      settle(l, notApplied(l, CHECKED));',
    PROOF_TESTS,
  ],
  [
    'P3',
    PROOF,
    'the hold window ends a moment late',
    'return hold.now < until ? until : null;',
    'return hold.now <= until ? until : null;',
    PROOF_TESTS,
  ],
  [
    'P4',
    PROOF,
    'no hold window at all',
    'const until = heldUntil(job, l, hold);',
    'const until = null as number | null;',
    PROOF_TESTS,
  ],
  [
    'P5',
    PROOF,
    'a top-up is read as a fall',
    'return residual >= 0 ? residual : null;',
    'return residual;',
    PROOF_TESTS,
  ],
  [
    'P6',
    PROOF,
    'a line not yet checked does not keep the fall unexplained',
    'expected === residual && stillOpen === 0',
    'expected === residual',
    PROOF_TESTS,
  ],
  [
    'P7',
    PROOF,
    'a free operation: a line not found is "not applied"',
    "        : kind(l) === 'unchanged'\n          ? { id: l.id, ...notApplied(l, CHECKED) }",
    "        : kind(l) !== 'changed'\n          ? { id: l.id, ...notApplied(l, CHECKED) }",
    PROOF_TESTS,
  ],
  [
    'P8',
    PROOF,
    'a line that shows a change with no charge is applied',
    '      if ((l.cost ?? 1) > 0)\n',
    '      if (false)\n',
    PROOF_TESTS,
  ],
  [
    'P9',
    PROOF,
    'a line that costs nothing, not found: "not applied"',
    "if (kind(l) === 'missing' && l.cost === 0)",
    'if (false)',
    PROOF_TESTS,
  ],
  [
    'K1',
    PASTE,
    'the paste timeout is 3 s',
    'const PASTE_SETTLE_MS = 300;',
    'const PASTE_SETTLE_MS = 3000;',
    PASTE_TESTS,
  ],
  [
    'K2',
    PASTE,
    'the paste timeout is 299 ms',
    'const PASTE_SETTLE_MS = 300;',
    'const PASTE_SETTLE_MS = 299;',
    PASTE_TESTS,
  ],
  [
    'K3',
    PASTE,
    'an unfinished paste ends as keys',
    "      out.push({ kind: 'paste', text: this.#paste });\n    } else if",
    "      out.push({ kind: 'keys', text: this.#paste });\n    } else if",
    PASTE_TESTS,
  ],
  [
    'K4',
    PASTE,
    'the held ESC waits 200 ms',
    'const ESC_SETTLE_MS = 20;',
    'const ESC_SETTLE_MS = 200;',
    PASTE_TESTS,
  ],
];

const only = new Set(process.argv.slice(2));
const rows = [];
for (const [id, file, what, from, to, tests] of MUTATIONS) {
  if (only.size && !only.has(id)) continue;
  const original = readFileSync(file, 'utf8');
  const at = original.indexOf(from);
  if (at < 0 || original.indexOf(from, at + 1) >= 0) {
    rows.push([id, at < 0 ? 'NOT FOUND' : 'AMBIGUOUS', what]);
    continue;
  }
  writeFileSync(file, original.slice(0, at) + to + original.slice(at + from.length));
  try {
    const r = spawnSync('npx', ['vitest', 'run', ...tests], {
      encoding: 'utf8',
      env: { ...process.env, CI: '1' },
    });
    rows.push([id, r.status === 0 ? 'SURVIVED' : 'killed', what]);
  } finally {
    writeFileSync(file, original);
  }
  console.error(`${rows.at(-1)[0]} ${rows.at(-1)[1]}`);
}
for (const [id, result, what] of rows) console.log(`${id}\t${result}\t${what}`);
process.exit(rows.some((r) => r[1] !== 'killed') ? 1 : 0);
