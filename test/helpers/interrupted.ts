/**
 * The resume offer's set-up: `resumeSandbox` (a sandbox of 40 lines, a client on it and an empty
 * intent log, for a test to write its jobs in), `offer` (the offer's text in a frame), `twoJobs`
 * (two jobs with lines never sent, begun in that log) and `interruptedJob` (below).
 */
import { expect } from 'vitest';
import { createClient } from '../../src/api/client';
import type { LineListItem } from '../../src/api/contract';
import type { BulkLine } from '../../src/domain/bulk';
import { Marks } from '../../src/domain/marks';
import { type IntentLog, memoryIntentLog } from '../../src/services/changes/intent-log';
import { extendJob, jobLine } from './jobs';
import { DEMO_KEY, sandbox } from './sandbox';
import { slowExtends } from './slow-extends';
import { cleanups } from './wait';

/** The offer's text, its rows joined (a row is cut at the width; the check reads its start). */
export const offer = (f: string) =>
  f
    .split('\n')
    .filter((r) => r.startsWith('│'))
    .map((r) => r.slice(1).replace(/│\s*$/, '').trim())
    .join('\n');

/** A sandbox of 40 lines, a client on it (closed at the test's end) and an empty intent log. */
export async function resumeSandbox() {
  const env = await sandbox({ lines: 40 });
  const client = createClient({ baseUrl: env.sb.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
  cleanups.push(() => client.close());
  return { env, client, intents: memoryIntentLog() };
}

/**
 * Two jobs begun in `intents`: 'aaaaaaaa-first' (made 10 minutes ago: `a` applied, `b` and `c` never
 * sent) and 'bbbbbbbb-second' (made 5 minutes ago) of the lines `second` (what the test is about).
 */
export function twoJobs(
  intents: Pick<IntentLog, 'begin'>,
  [a, b, c]: readonly LineListItem[],
  second: readonly BulkLine[],
): void {
  const at = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
  intents.begin(
    extendJob(
      'aaaaaaaa-first',
      [jobLine(a!, { state: 'done', detail: 'applied' }), jobLine(b!), jobLine(c!)],
      {
        createdAt: at(10),
      },
    ),
  );
  intents.begin(extendJob('bbbbbbbb-second', second, { createdAt: at(5) }));
}

/**
 * A bulk extend of 8 lines interrupted (the app stopped) after some of its lines were sent and one
 * was not, because it changed since it was marked: the intent log holds it for the next start, with
 * lines never sent and the changed one left marked to review. Runs through a fault proxy, so a test
 * can play the next start's network (`proxy.set`).
 */
export async function interruptedJob() {
  const { env, proxy, intents, deps, start, lines, onExtend } = await slowExtends();
  const changed = lines[5]!;

  const first = await start();
  first.setState({ marked: Marks.of(lines) });
  first.getState().openBulk('extend');
  // After it was marked, another client changes one line's connections (its cost changes).
  env.sb.repo.updateLine(changed.id, {
    connections: changed.connections < 6 ? changed.connections + 1 : 1,
  });
  let stopping: Promise<void> | null = null;
  onExtend((n) => {
    if (n === 2) stopping = first.getState().shutdown(5_000); // Ctrl-C, q, SIGHUP: the same path
  });
  await first.getState().bulkStart();
  await stopping;
  const [job] = intents.open();
  expect(job!.lines.find((l) => l.id === changed.id)!.state).toBe('skipped');
  const unsent = job!.lines.filter((l) => l.state === 'pending').map((l) => l.id);
  expect(unsent.length).toBeGreaterThan(0);

  return { env, proxy, intents, deps, start, changed, unsent };
}
