/**
 * At start, a job whose owner file cannot be read (EACCES, injected: the tests may run as root) is
 * held, never taken: its owner may be a live linedesk no one can tell. The user is told which file
 * and what to do; its line is held for it, nothing of it checked or resumed from here.
 */
import { spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog, type IntentFs } from '../../src/app/intent-file';
import { toBulkLine } from '../../src/domain/bulk';
import { unsettledReason } from '../../src/store/selectors';
import { storeOnSandbox } from '../helpers/app';
import { extendJob } from '../helpers/jobs';
import { sandbox } from '../helpers/sandbox';

describe('at start, a job whose owner file cannot be read', () => {
  it('is held for an owner no one can tell, its file named with what to do; the file is left as it is', async () => {
    const env = await sandbox({ lines: 40 });
    const dir = mkdtempSync(join(tmpdir(), 'ld-owner-unread-'));
    const [line] = (await env.client.listLines({ type: 'premium', limit: 1 })).lines;
    const gone = { pid: spawnSync(process.execPath, ['-e', '0']).pid!, start: null };
    fileIntentLog(dir, gone).begin(
      extendJob('j-unread', [{ ...toBulkLine(line!), cost: 1, state: 'unknown' as const }]),
    );
    const owner = join(dir, 'j-unread.jsonl.owner');
    const before = nodeFs.readFileSync(owner, 'utf8');
    const fs: Partial<IntentFs> = {
      readFileSync: ((...args: Parameters<typeof nodeFs.readFileSync>) => {
        if (String(args[0]) === owner)
          throw Object.assign(new Error(`EACCES: permission denied, open '${owner}'`), {
            code: 'EACCES',
            path: owner,
          });
        return nodeFs.readFileSync(...args);
      }) as IntentFs['readFileSync'],
    };
    const intents = fileIntentLog(dir, undefined, { fs });
    const { store } = await storeOnSandbox({}, { intents }, env);
    await store.getState().start();
    const s = store.getState();
    const who = `another linedesk, maybe (its owner file ${owner} cannot be read: permission denied (EACCES); make it readable, or remove it once no other linedesk runs)`;
    expect(s.recovery).toBeNull();
    expect(unsettledReason(s, line!.id)).toContain(`held for ${who}`);
    expect(s.flash?.text).toContain(`${who} is making an earlier extend`);
    // Not taken: the record is the dead maker's still, nothing moved or written over it.
    expect(nodeFs.readFileSync(owner, 'utf8')).toBe(before);
  });
});
