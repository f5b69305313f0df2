/**
 * A bulk extend of 8 lines interrupted (the app stopped) after some of its lines were sent and one
 * was not, because it changed since it was marked: the intent log holds it for the next start, with
 * lines never sent and the changed one left marked to review. Runs through a fault proxy, so a test
 * can play the next start's network (`proxy.set`).
 */
import { expect } from 'vitest';
import { Marks } from '../../src/domain/marks';
import { slowExtends } from './slow-extends';

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
