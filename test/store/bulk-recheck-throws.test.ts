/**
 * The bulk results' check again (`r`): a check that throws (a take the disk refuses) must not leave
 * the view "running" for good (Esc answered "The job is running"); `c` is not offered while a check
 * runs, since a check sends nothing to cancel.
 */
import { describe, expect, it } from 'vitest';
import { createChangeService } from '../../src/services/changes/service';
import { storeOnSandbox } from '../helpers/app';
import { extendJob, jobLine } from '../helpers/jobs';
import { sandbox } from '../helpers/sandbox';

describe('bulk recheck that throws', () => {
  it('does not leave the results view running', async () => {
    const env = await sandbox({ lines: 40 });
    const real = createChangeService({
      client: env.client,
      target: { id: 'sandbox:test', kind: 'sandbox', label: 'SANDBOX', baseUrl: env.sb.baseUrl },
    } as never);
    const changes = { ...real, checkChange: () => Promise.reject(new Error('EACCES: the intent log')) };
    const { store } = await storeOnSandbox({}, { changes }, env);
    const line = (await env.client.listLines({ limit: 1 })).lines[0]!;
    const job = extendJob('job-recheck', [{ ...jobLine(line, { cost: 3 }), state: 'unknown' }]);
    store.setState({
      bulk: {
        ...(store.getState().bulk ?? {}),
        phase: 'done',
        job,
        quoting: false,
        onlyAffordable: false,
        typed: '',
        hidden: 0,
        progress: { done: 0, total: 1 } as never,
        cancelling: false,
      } as never,
    });
    await expect(store.getState().bulkRecheck()).resolves.toBeUndefined();
    expect(store.getState().bulk?.phase).toBe('done');
    expect(store.getState().flash?.text ?? '').toContain('EACCES: the intent log');
  });
});
