/**
 * A job left open by a killed process, then its intent file damaged (a disk fault, a bad copy, a
 * hand edit): the damage is named with the file's path, never ignored and never a crash; the lines it
 * may concern count as "maybe sent" — checked with the server, never resumed — and no new change is
 * sent for a line whose record cannot be read until it is settled.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import { toBulkLine } from '../../src/domain/bulk';
import { unsettledReason } from '../../src/store/selectors';
import { storeOnSandbox } from '../helpers/app';
import { lostReplyThenReadsFail } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { extendJob, jobLine } from '../helpers/jobs';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';

type Env = Awaited<ReturnType<typeof sandbox>>;

/**
 * A killed linedesk's job: its extend was written as `sending`, sent, and applied by the server; the
 * process died before the reply reached the log. Returns the job file and the line.
 */
async function killedMidJob(env: Env, dir: string) {
  const [line] = (await env.client.listLines({ type: 'premium', limit: 1 })).lines;
  const job = extendJob('job-killed', [jobLine(line!)], { balanceBefore: (await env.client.me()).credits });
  const gone = { pid: spawnSync(process.execPath, ['-e', '0']).pid!, start: null };
  const theirs = fileIntentLog(dir, gone);
  theirs.begin(job);
  theirs.line(job.id, { ...job.lines[0]!, state: 'sending' });
  await env.client.extendLine({ id: line!.id, duration: 1 });
  const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!);
  return { file, line: line!, records: readFileSync(file, 'utf8').split('\n').filter(Boolean) };
}

describe('a damaged intent file of a job left open', () => {
  it('(a) a garbage first record: the job is named with its path and its line held, not forgotten', async () => {
    const env = await sandbox();
    const dir = mkdtempSync(join(tmpdir(), 'ld-damage-a-'));
    const { file, line, records } = await killedMidJob(env, dir);
    writeFileSync(file, `${['{"job":{"id":"job-kil', ...records.slice(1)].join('\n')}\n`);
    const { store } = await storeOnSandbox({}, { intents: fileIntentLog(dir) }, env);
    await store.getState().start();
    const s = store.getState();
    // The header is gone, so the job cannot be checked; the line its records name is held.
    expect(s.unsettled.has(line.id)).toBe(true);
    expect(unsettledReason(s, line.id)).toMatch(/^held for a damaged intent file/);
    expect(s.flash?.text).toContain(file);
    expect(s.flash?.text).toMatch(/cannot be checked.*look them up.*set it aside by moving the file/);
    // Nothing was sent from here, and the file stays for the user.
    expect(books(env.sb).ledger).toHaveLength(1);
    expect(readdirSync(dir)).toContain(file.split('/').at(-1));
  });

  it('(b) a `null` record: start does not fail; the job is checked and the damage named', async () => {
    const env = await sandbox();
    const dir = mkdtempSync(join(tmpdir(), 'ld-damage-b-'));
    const { file, line, records } = await killedMidJob(env, dir);
    writeFileSync(file, `${[records[0], 'null', ...records.slice(1)].join('\n')}\n`);
    const { store } = await storeOnSandbox({}, { intents: fileIntentLog(dir) }, env);
    await store.getState().start();
    const r = store.getState().recovery;
    expect(r?.checking).toBe(false);
    expect(r?.jobs[0]?.job.lines[0]).toMatchObject({ id: line.id, state: 'done' });
    expect(r?.jobs[0]?.unsent).toBe(0);
    expect(books(env.sb).ledger).toHaveLength(1);
  });

  it('(c) a torn last record: the line sent and applied is checked (applied), never offered to resume', async () => {
    const env = await sandbox();
    const dir = mkdtempSync(join(tmpdir(), 'ld-damage-c-'));
    const { file, line, records } = await killedMidJob(env, dir);
    // The `sending` record was cut mid-write: the replay alone would call the line never sent.
    const sending = records[1]!;
    writeFileSync(file, `${records[0]}\n${sending.slice(0, sending.length >> 1)}`);
    const intents = fileIntentLog(dir);
    expect(intents.open()[0]!.lines[0]).toMatchObject({ state: 'unknown' });
    expect(intents.open()[0]!.lines[0]!.detail).toContain(file);
    const { store } = await storeOnSandbox({}, { intents }, env);
    await store.getState().start();
    const r = store.getState().recovery;
    expect(r?.jobs[0]?.job.lines[0]).toMatchObject({ id: line.id, state: 'done' });
    expect(r?.jobs[0]?.unsent).toBe(0);
    expect(books(env.sb).ledger).toHaveLength(1);
  });
});

describe('headless, after a run left a change open and its file was damaged', () => {
  const leftOpen = async () => {
    const { sb } = await sandbox({ lines: 30 });
    const proxy = await lostReplyThenReadsFail(sb.baseUrl);
    const home = homeDirs();
    const env = envFor(sb.baseUrl, DEMO_KEY, home);
    const lines = await headless(
      ['lines', '--type', 'premium', '--status', 'active', '--ndjson', '--limit', '1'],
      {
        env,
      },
    );
    const line = JSON.parse(lines.stdout.split('\n')[0]!) as { id: string; username: string };
    onTestFinished(() => proxy.close());
    // The job is kept for the account on the service as this run reached it (through the proxy).
    const through = envFor(proxy.baseUrl, DEMO_KEY, home);
    const first = await headless(['extend', line.username, '--yes'], { env: through });
    expect(first.code).toBe(3);
    proxy.set({});
    const data = home.LINEDESK_DATA_DIR;
    const dir = readdirSync(data).find(
      (d) => d.startsWith('intents-') && readdirSync(join(data, d)).some((f) => f.endsWith('.jsonl')),
    )!;
    const file = join(data, dir, readdirSync(join(data, dir)).find((f) => f.endsWith('.jsonl'))!);
    return { sb, env: through, line, file, records: readFileSync(file, 'utf8').split('\n').filter(Boolean) };
  };

  it('(a) garbage first record: a new change of its line exits 3 naming the open change and the file', async () => {
    const { sb, env, line, file, records } = await leftOpen();
    writeFileSync(file, `${['\u0000\u0000garbage', ...records.slice(1)].join('\n')}\n`);
    const r = await headless(['extend', line.username, '--months', '1', '--yes'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(new RegExp(`${line.username}: This line is held for a damaged intent file`));
    expect(books(sb).ledger).toHaveLength(1);
  });

  it('(b) a `null` record: the command runs, checks the change, and names the damaged file', async () => {
    const { sb, env, line, file, records } = await leftOpen();
    writeFileSync(file, `${[...records, 'null'].join('\n')}\n`);
    const r = await headless(['extend', line.username], { env });
    expect(r.stderr).not.toMatch(/Unexpected error/);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/An earlier extend .* checked with the server: 1 applied/);
    expect(books(sb).ledger).toHaveLength(1);
  });

  it("(e) an ended job's kept file torn: said at start as an ended job's, its lines not held", async () => {
    const env = await sandbox();
    const dir = mkdtempSync(join(tmpdir(), 'ld-damage-e-'));
    const { file, line } = await killedMidJob(env, dir);
    // Its outcome known and journaled elsewhere: the job ended, kept as settled, then torn.
    const log = fileIntentLog(dir);
    log.line('job-killed', { ...toBulkLine(line), cost: line.connections, state: 'done' });
    log.end('job-killed');
    const kept = `${file}.settled`;
    writeFileSync(kept, `${readFileSync(kept, 'utf8')}{"n":7`);
    const { store } = await storeOnSandbox({}, { intents: fileIntentLog(dir) }, env);
    await store.getState().start();
    const s = store.getState();
    expect(s.unsettled.has(line.id)).toBe(false);
    expect(s.flash?.text).toContain(`The intent file ${kept} of an ended job is damaged`);
    expect(s.recovery?.jobs ?? []).toEqual([]);
  });
});
