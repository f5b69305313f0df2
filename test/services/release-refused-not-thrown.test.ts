/**
 * A run that ends with a line still open releases its job (another linedesk may check it). A release
 * the disk refuses must not escape the run: the outcome stays what it is (unknown, never re-sent), the
 * job's file stays on disk and is offered at the next start, and the user is told so, with the file.
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('a release the disk refuses at the end of a run', () => {
  it('is said, not thrown: the unknown line stays unknown, its file offered at the next start', async () => {
    // The extend's connection is reset once sent: its outcome is unknown, checked, still open.
    const { env, proxy, client, dir } = await proxiedSandbox({
      lines: 10,
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
    });
    const [a] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const log = fileIntentLog(dir);
    const owner = `${log.where!('job-release')}.owner`;
    const changes = createChangeService({
      client,
      target,
      intents: {
        ...log,
        release() {
          throw Object.assign(new Error(`EIO: i/o error, unlink '${owner}'`), { code: 'EIO', path: owner });
        },
      },
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const notes: string[] = [];
    changes.subscribe((e) => {
      if (e.type === 'notice') notes.push(e.text);
    });
    const final = await changes.runChange(extendJob('job-release', [jobLine(a!)]), {
      bulk: true,
      linesReadAt: Date.now(),
    });
    expect(final.lines.map((l) => l.state)).toEqual(['unknown']);
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(notes.some((n) => n.includes(owner) && /offered again at the next start/.test(n))).toBe(true);
    // On disk: the job, its line open, for the next start.
    expect(
      fileIntentLog(dir)
        .open()
        .map((j) => [j.id, j.lines[0]!.state]),
    ).toEqual([['job-release', 'unknown']]);
    await changes.shutdown(0);
  }, 30_000);
});
