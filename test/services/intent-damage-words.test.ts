/**
 * A path of the intent log that cannot be read is said with what the user can do, chosen by what is
 * wrong (the log's typed cause), never by the problem's words: a job's file (one that cannot be read at
 * all, or whose job record does not read) can be set aside once its lines are looked up; the log's
 * directory, or a log that failed, is fixed where it is (never "set aside").
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { holdDamagedIntents, sayNotChecked, unreadableLog } from '../../src/services/changes/intent-damage';
import type { LoggedJob, UnreadableCause } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { recoveredOf } from '../../src/services/changes/recovery';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { sandbox } from '../helpers/sandbox';
import { serviceOnFaultyLog } from './faulty-log-service';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

describe('a job refused because its path of the intent log does not read', () => {
  it('a job file damaged from its first record: refused with the set-aside advice, the file named', async () => {
    const env = await sandbox({ lines: 10 });
    const [line] = (await env.client.listLines({ limit: 10, type: 'premium' })).lines;
    const dir = mkdtempSync(join(tmpdir(), 'ld-files-first-'));
    const sentAt = Date.now() - 3 * 3_600_000;
    const job = extendJob('job-first', [jobLine(line!, { state: 'unknown', sentAt, detail: 'sent' })]);
    const setup = fileIntentLog(dir);
    setup.begin(job);
    setup.release(job.id);
    // Offered at start; since, its job record was damaged (a bad copy, a hand edit).
    const file = join(dir, 'job-first.jsonl');
    const rest = readFileSync(file, 'utf8').split('\n').slice(1).join('\n');
    writeFileSync(file, `{"n":0,"job":{"id":"job-fi\n${rest}`);
    const notices: string[] = [];
    const changes = createChangeService({
      client: env.client,
      target,
      intents: fileIntentLog(dir),
      journal: memoryJournal(),
      sleep: async () => {},
    });
    changes.subscribe((e) => {
      if (e.type === 'notice') notices.push(e.text);
    });
    await changes.recheckRecovered([recoveredOf(job)]);
    const said = notices.find((n) => n.startsWith('Not checked, nothing written'));
    expect(said).toContain(`the intent file ${file} is damaged (`);
    expect(said).toContain(`linedesk pending --set-aside ${file} --yes`);
  }, 30_000);
});

describe('each cause gets its advice, whatever the problem says', () => {
  const path = '/data/intents-x/job-1.jsonl';
  // One problem text for every cause: the advice must come from the cause alone.
  const problem = 'the disk failed to read or write (EIO)';
  const job = extendJob('job-1', []);
  const refusal = (cause: UnreadableCause) => {
    const notices: string[] = [];
    const logged: LoggedJob = { kind: 'unreadable', path, problem, cause };
    sayNotChecked([{ job, logged }], (text) => notices.push(text));
    expect(notices).toHaveLength(1);
    return notices[0]!;
  };
  const setAside = `linedesk pending --set-aside ${path} --yes`;

  it('a job file that cannot be read: its path as a file, and how to set it aside if it stays unreadable', () => {
    const said = refusal('file');
    expect(said).toContain(`the intent file ${path} cannot be read (${problem})`);
    expect(said).toContain(`if it stays unreadable, look up the changes made around its time, then`);
    expect(said).toContain(setAside);
    expect(unreadableLog(path, problem, 'file')).toBe(`the intent file ${path} cannot be read (${problem})`);
  });

  it('a job file whose job record does not read: damaged, and how to set it aside', () => {
    const said = refusal('records');
    expect(said).toContain(`the intent file ${path} is damaged (${problem})`);
    expect(said).toContain(setAside);
    expect(unreadableLog(path, problem, 'records')).toBe(`the intent file ${path} is damaged (${problem})`);
  });

  it('the directory, or a log that failed: fixed where it is, never set aside', () => {
    for (const cause of ['directory', 'log'] as const) {
      const said = refusal(cause);
      expect(said).toContain(`the intent log cannot be read (${path}: ${problem})`);
      expect(said).not.toContain('--set-aside');
      expect(unreadableLog(path, problem, cause)).toBe(`the intent log cannot be read (${path}: ${problem})`);
    }
  });
});

/** How many times `part` occurs in `text`. */
const count = (text: string, part: string) => text.split(part).length - 1;

describe('the start-up notices of an intent log that does not read name its path once', () => {
  async function started(fail: (f: ReturnType<typeof serviceOnFaultyLog>['failing'], file: string) => void) {
    const dir = mkdtempSync(join(tmpdir(), 'ld-files-start-'));
    const file = join(dir, 'job-start.jsonl');
    writeFileSync(file, '{"n":0,"job":{"id":"job-start"}}\n');
    const { failing, changes, notices } = serviceOnFaultyLog({} as never, dir);
    fail(failing, file);
    await changes.recoverIntents();
    return { dir, file, said: notices() };
  }

  it('a job file that cannot be read: the file once, and once in the command that sets it aside', async () => {
    const { file, said } = await started((f, file) => {
      f.file = file;
    });
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('(the disk failed to read or write (EIO))');
    expect(said[0]).toContain(`linedesk pending --set-aside ${file} --yes`);
    expect(count(said[0]!, file)).toBe(2);
  });

  it('a directory that cannot be listed: the directory once', async () => {
    const { dir, said } = await started((f) => {
      f.listing = true;
    });
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('the directory cannot be listed (permission denied (EACCES))');
    expect(count(said[0]!, dir)).toBe(1);
  });
});

describe('a read of the intent log that threw part way', () => {
  it('is said with the path it names and what to do, and the damage it still read is said and held', () => {
    const said: string[] = [];
    const held: string[] = [];
    holdDamagedIntents(
      {
        jobs: [],
        damage: [
          {
            path: '/log/job-x.jsonl',
            problem: 'record 1 of 2 is not a record (null)',
            jobId: null,
            lines: [{ id: 'L1', username: 'alice' }],
          },
        ],
        error: {
          path: '/log/job-y.jsonl.settled',
          problem: 'permission denied: /log/job-y.jsonl.settled (EACCES)',
          openRead: true,
        },
      },
      (text) => said.push(text),
      (lines) => held.push(...lines.map((l) => l.id)),
    );
    expect(said[0]).toBe(
      'The intent log could not be read (/log/job-y.jsonl.settled: permission denied (EACCES)); the changes left open that it could read are checked all the same: fix it (its permissions, the disk), then run again',
    );
    expect(said[1]).toContain('The intent file /log/job-x.jsonl is damaged');
    expect(held).toEqual(['L1']);
  });
});
