/**
 * `linedesk journal` on a terminal: the OUTCOME column is read first, and an outcome the user settled
 * by hand is their word, not the service's proof. It is whole while the terminal has room for it (the
 * other columns give way first); narrower, it is said in short ("by hand: yes"), never cut.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/services/changes/journal';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const rowOf = (out: string, username: string) => out.split('\n').find((r) => r.includes(username)) ?? '';
/** The table's rows, the header first (the totals under it are sentences, not cut to the width). */
const tableOf = (out: string) => stripAnsi(out).split('\n').slice(0, 5);

async function journalOf() {
  const { sb } = await sandbox({ lines: 1 });
  const env = envFor(sb.baseUrl, DEMO_KEY);
  const id = JSON.parse((await headless(['journal', '--json'], { env })).stdout).account.id as string;
  let n = 0;
  const e = (username: string, outcome: JournalEntry['outcome'], byHand: boolean) => ({
    opId: `job:${++n}`,
    time: new Date(2026, 10, 24, 12, n).toISOString(),
    target: id,
    operation: 'extend',
    lineId: String(n),
    username,
    quotedCost: 2,
    estimate: true,
    deducedCredits: outcome === 'applied' ? 2 : null,
    newBalance: 90,
    outcome,
    months: 1,
    ...(byHand ? { settledByHand: true } : {}),
  });
  mkdirSync(env.LINEDESK_DATA_DIR!, { recursive: true });
  writeFileSync(
    join(env.LINEDESK_DATA_DIR!, 'journal.jsonl'),
    `${[
      e('proven.applied01', 'applied', false),
      e('proven.refused02', 'not applied', false),
      e('handapplied03', 'applied', true),
      e('handrefused04', 'not applied', true),
    ]
      .map((x) => JSON.stringify(x))
      .join('\n')}\n`,
  );
  return (columns: number) => headless(['journal'], { env, tty: { isTTY: true, columns } });
}

describe('linedesk journal on a narrow terminal', () => {
  it('whole at 72 and 66 columns (the other columns give way), in short at 50, never cut', async () => {
    const journal = await journalOf();
    for (const columns of [72, 66]) {
      const { code, stdout } = await journal(columns);
      expect(code).toBe(0);
      expect(rowOf(stdout, 'proven.applied01')).toMatch(/ applied$/);
      expect(rowOf(stdout, 'proven.refused02')).toMatch(/ not applied$/);
      expect(rowOf(stdout, 'handapplied03')).toMatch(/ applied \(by hand\)$/);
      expect(rowOf(stdout, 'handrefused04')).toMatch(/ not applied \(by hand\)$/);
      expect(rowOf(stdout, 'handrefused04')).toMatch(/ extend /); // the operation still has room
      for (const row of tableOf(stdout)) expect(row.length).toBeLessThanOrEqual(columns);
    }
    const { stdout } = await journal(50);
    expect(rowOf(stdout, 'proven.applied01')).toMatch(/ applied$/);
    expect(rowOf(stdout, 'proven.refused02')).toMatch(/ not applied$/);
    expect(rowOf(stdout, 'handapplied03')).toMatch(/ by hand: yes$/);
    expect(rowOf(stdout, 'handrefused04')).toMatch(/ by hand: no$/);
    expect(stdout).not.toContain('…');
    for (const row of tableOf(stdout)) expect(row.length).toBeLessThanOrEqual(50);
  });
});
