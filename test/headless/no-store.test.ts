/**
 * A read command runs on the services, never on the screens' store (issue #25, part 4): the store
 * is built for screens (session, catalog, lines, expired count…) and a command needs none of it.
 * Checked twice: the import graph of the read commands reaches no file of src/store/ at run time,
 * and running `account --json` and `lines --json` constructs no store (a command still on the
 * store, `extend`, does: the spy sees it).
 */
import { describe, expect, it, vi } from 'vitest';
import { imports } from '../../scripts/import-graph.mjs';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

const built = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/store/app-store', async (original) => {
  const m = await original<typeof import('../../src/store/app-store')>();
  return {
    ...m,
    createAppStore: (...a: Parameters<typeof m.createAppStore>) => {
      built.count++;
      return m.createAppStore(...a);
    },
  };
});

const READS = [
  'src/headless/commands/read.ts',
  'src/headless/commands/lines.ts',
  'src/headless/commands/renewals.ts',
  'src/headless/commands/message.ts',
  'src/headless/commands/local.ts',
];

/** Every file `from` loads at run time (type-only imports are erased), itself included. */
function reach(runtime: Map<string, Set<string>>, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [from];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const to of runtime.get(f) ?? []) todo.push(to);
  }
  return seen;
}

describe('read commands do not build the screens’ store', () => {
  it('their import graph reaches no file of src/store/ (nor ui/ components or keys/)', () => {
    const { runtime } = imports();
    for (const file of READS) {
      expect(runtime.has(file), file).toBe(true);
      const loaded = [...reach(runtime, file)].filter((f) => /^src\/(store|keys)\/|\.tsx$/.test(f));
      expect(loaded, file).toEqual([]);
    }
    // The check can fail: the app's run loop reaches it.
    expect(reach(runtime, 'src/app/run.tsx')).toContain('src/store/app-store.ts');
  });

  it('account --json, lines --json and a change construct no store', async () => {
    const env = await sandbox({ lines: 30 });
    const cmdEnv = envFor(env.sb.baseUrl, DEMO_KEY);
    built.count = 0;
    const account = await headless(['account', '--json'], { env: cmdEnv });
    expect(account.code).toBe(0);
    expect(JSON.parse(account.stdout).lines_count).toBe(30);
    const lines = await headless(['lines', '--json', '--all'], { env: cmdEnv });
    expect(lines.code).toBe(0);
    expect(JSON.parse(lines.stdout).lines).toHaveLength(30);
    expect(built.count).toBe(0);
    // The change commands run on the change service alone too (test/headless/change-service.test.ts).
    const line = JSON.parse(lines.stdout).lines.find((l: { is_trial: boolean }) => !l.is_trial).username;
    const extend = await headless(['extend', line, '--months', '1', '--json'], { env: cmdEnv });
    expect(extend.code).toBe(4);
    expect(built.count).toBe(0);
  });
});
