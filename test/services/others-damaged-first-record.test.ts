/**
 * Another job's file damaged from its first record (its job record does not read) cannot be told:
 * it may be a job of this account in flight (its lines being sent, its charges moving the balance),
 * as one whose file does not read at all may. The questions about other jobs read it as "cannot
 * tell", never as "none": no verdict rests on the balance (a change seen may be that job's, its
 * charge never counted as this job's), and a new change is not sent (which lines it is changing, and
 * which windows to close, cannot be told). The file is named, with how to set it aside.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { serviceOnFaultyLog } from './faulty-log-service';
import { proxiedSandbox } from './proxied-sandbox';

async function setup() {
  const { env, proxy, client, dir } = await proxiedSandbox({ lines: 30 });
  const lines = (await env.client.listLines({ limit: 30 })).lines.filter(
    (l) => !l.is_trial && l.enabled && l.connections < 5,
  );
  const { journal, changes, notices } = serviceOnFaultyLog(client, dir, { bulkConcurrency: 1 });
  return { env, proxy, dir, lines, journal, changes, notices };
}

/** Another linedesk's job extending `line`, on disk as `sending`, then its job record damaged. */
function anotherJobDamaged(dir: string, line: Parameters<typeof jobLine>[0]): string {
  const log = fileIntentLog(dir);
  const theirs = extendJob('another-job-0010', [jobLine(line, { state: 'sending', sentAt: Date.now() })], {
    balanceBefore: null,
  });
  log.begin(theirs);
  log.line(theirs.id, { ...theirs.lines[0]!, state: 'sending', sentAt: Date.now() });
  log.release(theirs.id);
  const file = join(dir, `${theirs.id}.jsonl`);
  const rest = readFileSync(file, 'utf8').split('\n').slice(1).join('\n');
  writeFileSync(file, `{"n":0,"job":{"id":"another-jo\n${rest}`);
  return file;
}

describe('another job’s file damaged from its first record', () => {
  it('a check of a job whose window is open: the change seen may be that job’s, its charge never counted from the balance', async () => {
    const { env, dir, lines, journal, changes, notices } = await setup();
    const line = lines[0]!;
    // This job's extend of the line was sent, its outcome unknown (it never reached the service);
    // its balance window is open (its charges judged by the balance's fall).
    const mine = extendJob(
      'job-c-00000001',
      [jobLine(line, { state: 'unknown', sentAt: Date.now() - 3 * 3_600_000, detail: 'sent; no answer' })],
      { balanceBefore: (await env.client.me()).credits },
    );
    const log = fileIntentLog(dir);
    log.begin(mine);
    log.release(mine.id);
    // Another job's extend of the same line is charged; its file's job record no longer reads.
    const file = anotherJobDamaged(dir, line);
    await env.client.extendLine({ id: line.id, duration: 1 });
    const final = await changes.checkChange(mine);
    const l = final.lines[0]!;
    expect(books(env.sb).ledger.filter((r) => r.line_id === line.id)).toHaveLength(1);
    expect(l.state).toBe('done');
    expect(l.maybeOther).toContain(file);
    expect(l.deducedCredits).toBeUndefined();
    expect(l.charge).toBe('unknown');
    const entry = journal.entries.find((e) => e.lineId === line.id)!;
    expect(entry.charge).toBe('unknown');
    expect(entry.deducedCredits).toBeNull();
    // Said once, naming the file as damaged, with how to set it aside.
    const said = notices().filter((n) => n.includes(file));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`The intent file ${file} is damaged (`);
    expect(said[0]).toContain(`linedesk pending --set-aside ${file} --yes`);
  }, 30_000);

  it('a new change: nothing sent, nothing charged; the file named as damaged, with how to set it aside', async () => {
    const { env, proxy, dir, lines, changes, notices } = await setup();
    const [line, theirs] = lines;
    const file = anotherJobDamaged(dir, theirs!);
    const final = await changes.runChange(extendJob('job-c-00000002', [jobLine(line!)]), {
      bulk: true,
      linesReadAt: Date.now(),
    });
    expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(0);
    expect(books(env.sb).ledger.filter((r) => r.line_id === line!.id)).toHaveLength(0);
    expect(final.lines[0]!.state).toBe('failed');
    expect(final.lines[0]!.notSent).toBe(true);
    expect(final.lines[0]!.detail).toContain(`the intent file ${file} is damaged (`);
    const said = notices().filter((n) => n.startsWith('Not sent, nothing charged'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`linedesk pending --set-aside ${file} --yes`);
  }, 30_000);
});
