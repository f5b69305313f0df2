/**
 * Settling a line by hand writes over the intent log's version of its job: when the log cannot be
 * read, it is refused with the path (never answered as "nothing open to settle", which a command says
 * as "held by another linedesk"), nothing is written; once the log reads, the settle goes through.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { extendJob, jobLine } from '../helpers/jobs';
import { serviceOnFaultyLog } from './faulty-log-service';
import { proxiedSandbox } from './proxied-sandbox';

describe('a settle by hand over an intent log that cannot be read', () => {
  it('is refused naming the directory, nothing written; it goes through once the log reads', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const job = extendJob('job-open', [jobLine(a!, { state: 'unknown', sentAt: Date.now() - 60_000 })], {
      balanceBefore: null,
    });
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);
    const { failing, journal, changes } = serviceOnFaultyLog(client, dir);

    failing.listing = true;
    const refused = changes.settleByHand(job.id, a!.id, 'not applied');
    expect(refused).toMatchObject({ ok: false, reason: 'unreadable', path: dir, cause: 'directory' });
    expect(refused.ok ? '' : refused.reason === 'unreadable' ? refused.problem : '').toMatch(
      /cannot be listed/,
    );
    expect(journal.entries).toEqual([]);
    expect(
      fileIntentLog(dir)
        .open()
        .map((j) => j.lines[0]!.state),
    ).toEqual(['unknown']);

    failing.listing = false;
    const settled = changes.settleByHand(job.id, a!.id, 'not applied');
    expect(settled.ok ? settled.job.lines.map((l) => l.state) : settled).toEqual(['failed']);
    expect(journal.entries.map((e) => e.username)).toEqual([a!.username]);
  }, 30_000);

  it('its job file damaged from its first record: refused naming the file, with how to set it aside (it will not read by itself)', async () => {
    const { env, client, dir } = await proxiedSandbox({ lines: 10 });
    const [a] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const job = extendJob('job-torn', [jobLine(a!, { state: 'unknown', sentAt: Date.now() - 60_000 })], {
      balanceBefore: null,
    });
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);
    const file = join(dir, `${job.id}.jsonl`);
    const rest = readFileSync(file, 'utf8').split('\n').slice(1).join('\n');
    writeFileSync(file, `{"n":0,"job":{"id":"job-to\n${rest}`);
    const { journal, changes } = serviceOnFaultyLog(client, dir);
    const refused = changes.settleByHand(job.id, a!.id, 'not applied');
    // The cause typed, for what the user can do (intent-damage.ts `unreadableAdvice` says it by it).
    expect(refused).toMatchObject({ ok: false, reason: 'unreadable', path: file, cause: 'records' });
    expect(journal.entries).toEqual([]);
  }, 30_000);
});
