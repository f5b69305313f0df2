/**
 * `linedesk pending` tells the recovery to leave a failed read of the intent log to the command
 * (`holdDamagedIntents(..., sayError = false)`), and the command says it: in its report, in a settle
 * that finds nothing, and in a settle that finds its line too. A file that did not read (an ended
 * job's kept file the disk refuses, say) is named with what to do, and the settle exits 3 (what is
 * open cannot all be told), never 0 in silence; what it settled stands.
 */
import { describe, expect, it, vi } from 'vitest';
import { unknownExtend } from '../helpers/unknown-extend';

const failing = vi.hoisted(() => ({ path: undefined as string | undefined }));
const broke = () =>
  Object.assign(new Error(`EACCES: permission denied, open '${failing.path}'`), {
    code: 'EACCES',
    path: failing.path,
  });

vi.mock('../../src/app/intent-file', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/app/intent-file')>();
  return {
    ...real,
    fileIntentLog: (...args: Parameters<typeof real.fileIntentLog>) => {
      const log = real.fileIntentLog(...args);
      return {
        ...log,
        damaged: () => {
          if (failing.path) throw broke();
          return log.damaged?.() ?? [];
        },
        openAndDamaged: () => {
          if (failing.path) throw broke();
          return log.openAndDamaged!();
        },
      };
    },
  };
});

describe('pending --settle over a log read that threw', () => {
  it('a settle that finds its line still names the file that did not read, exit 3', async () => {
    const { run, settle } = await unknownExtend();
    const kept = '/var/lib/linedesk/intents/0123.jsonl.settled';
    failing.path = kept;
    try {
      const r = await settle('applied');
      expect(r.stderr).toMatch(/settled by you as applied/);
      expect(r.stderr).toContain(kept);
      expect(r.stderr).toMatch(/fix it \(its permissions, the disk\), then run again/);
      expect(r.code).toBe(3);
      // What it settled stands: nothing is open once the log reads again.
      failing.path = undefined;
      const after = await run('pending', '--json');
      expect(JSON.parse(after.stdout).open).toEqual([]);
      expect(after.code).toBe(0);
    } finally {
      failing.path = undefined;
    }
  }, 30_000);
});
