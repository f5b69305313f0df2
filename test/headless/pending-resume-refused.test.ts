/**
 * A job whose resume (in the app) was refused before sending, its lines' read again failing (a 503),
 * is left as an interrupted job is: the headless commands say so as they say it of any interrupted
 * job. `linedesk pending` lists its lines never sent (exit 3: something is open), and a bulk command
 * names them before it sends its own lines, which are sent; the job's lines are never sent from there.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import { accountOf, intentsDir } from '../../src/app/account-id';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { extendJob, jobLine } from '../helpers/jobs';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';
import { cleanups } from '../helpers/wait';

describe('a job whose resume was refused by a failed read again', () => {
  it('is listed by `pending` as never sent, and named (not sent) by a bulk command', async () => {
    const env = await sandbox({ lines: 20 });
    const proxy = await faultProxy(env.sb.baseUrl, {
      rules: [{ match: 'GET /v1/lines/all', fault: { kind: 'error5xx', status: 503 } }],
    });
    const client = createClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    cleanups.push(async () => {
      await client.close();
      await proxy.landed();
      await proxy.close();
    });
    const home = homeDirs();
    const target = accountOf(
      { kind: 'remote', baseUrl: proxy.baseUrl, apiKey: DEMO_KEY, profile: null },
      home.LINEDESK_DATA_DIR,
    );
    const dir = intentsDir(home.LINEDESK_DATA_DIR, target.id);
    const [a, b, c] = (await env.client.listLines({ limit: 20, type: 'premium' })).lines;
    const job = extendJob('job-refused', [jobLine(a!), jobLine(b!)], {
      target: target.id,
      balanceBefore: null,
    });
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);
    const changes = createChangeService({
      client,
      target,
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
      sleep: async () => {},
    });
    const refused = await changes.runChange(job, { bulk: true });
    expect(refused.lines.map((l) => l.state)).toEqual(['pending', 'pending']);
    proxy.set({});

    const run = (argv: string[], stdin?: string) =>
      headless(argv, { env: envFor(proxy.baseUrl, DEMO_KEY, home), ...(stdin ? { stdin } : {}) });
    const listed = await run(['pending']);
    expect(listed.code, listed.stderr).toBe(3);
    for (const l of [a!, b!])
      expect(listed.stdout).toMatch(new RegExp(`${l.username}.*never sent: open linedesk to resume it`));

    const other = await run(['extend', '--stdin', '--yes'], `${c!.username}\n`);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toContain('2 never sent: open linedesk to resume them or set them aside');
    const charged = books(env.sb).ledger.map((r) => r.line_id);
    expect(charged).toEqual([c!.id]);
  }, 30_000);
});
