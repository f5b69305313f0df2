/**
 * Issue 22, item 1, for scripts: a change whose check sees no change yet exits 3 and names itself;
 * the line is held (a second change of it exits 3, naming the open change); `linedesk pending` lists it
 * and checks it again (exit 3 while open, 0 once settled); `--settle` records the user's verdict, typed
 * confirmation first, in the journal as settled by the user.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';

/** How many times `part` occurs in `text`. */
const count = (text: string, part: string) => text.split(part).length - 1;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(fault: Parameters<typeof faultProxy>[1]) {
  const env = await sandbox({ lines: 20 });
  const proxy = await faultProxy(env.sb.baseUrl, fault);
  cleanups.push(async () => {
    await proxy.landed();
    await proxy.close();
  });
  const home = homeDirs();
  const line = (await env.client.listLines({ limit: 20, type: 'premium' })).lines[0]!;
  const run = (...argv: string[]) => headless(argv, { env: envFor(proxy.baseUrl, DEMO_KEY, home) });
  const journal = () =>
    readFileSync(join(home.LINEDESK_DATA_DIR, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { outcome: string; detail?: string; username: string });
  return { env, proxy, line, run, journal, home };
}

describe('linedesk pending', () => {
  it('a change applied after a 504: exit 3 "no change seen yet", held; pending finds it applied once it lands', async () => {
    const { env, proxy, line, run, journal } = await setup({
      rules: [
        { match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'applyLate', ms: 300, answer: 'gateway' } },
      ],
    });
    proxy.hold(); // the late change lands only once the test has seen "no change seen yet"
    const first = await run('extend', line.username, '--yes');
    expect(first.code).toBe(3);
    expect(first.stdout + first.stderr).toMatch(/no change seen yet/);
    expect(first.stdout).toMatch(/\tunknown\t/);
    // Held: a second try is refused, naming the open change, and sends nothing.
    const again = await run('extend', line.username, '--yes');
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/unknown outcome.*extend of .*no change seen yet.*linedesk pending/s);
    const listed = await run('pending');
    expect(listed.code).toBe(3);
    expect(listed.stdout).toContain(line.username);
    expect(listed.stdout).toMatch(/unknown/);
    await proxy.landed();
    const after = await run('pending');
    expect(after.code).toBe(0);
    expect(after.stderr).toMatch(/Nothing is pending/);
    expect(books(env.sb).ledger.filter((r) => r.line_id === line.id)).toHaveLength(1);
    expect(journal().at(-1)?.outcome).toBe('applied');
    expect(journal().map((e) => e.outcome)).not.toContain('not applied');
  });

  it("--settle records the user's verdict after a typed confirmation; the line is free again", async () => {
    const { line, run, journal, env } = await setup({
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
    });
    expect((await run('extend', line.username, '--yes')).code).toBe(3);
    const wrong = await run(
      'pending',
      '--settle',
      line.username,
      '--as',
      'not-applied',
      '--confirm',
      'someone',
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--confirm must be the line's username/);
    expect((await run('pending')).code).toBe(3);
    const ok = await run(
      'pending',
      '--settle',
      line.username,
      '--as',
      'not-applied',
      '--confirm',
      line.username,
    );
    expect(ok.code).toBe(0);
    expect(journal().at(-1)).toMatchObject({ outcome: 'not applied', username: line.username });
    expect(journal().at(-1)?.detail).toMatch(/settled by the user/);
    expect((await run('pending')).code).toBe(0);
    // Free for a new change: sent, charged once.
    expect((await run('extend', line.username, '--yes')).code).toBe(0);
    expect(books(env.sb).ledger.filter((r) => r.line_id === line.id)).toHaveLength(1);
  });

  it("an ended job's kept file that does not read is named, exit 0 (nothing is open), and set aside when asked", async () => {
    const { line, run, home } = await setup({ rules: [] });
    expect((await run('extend', line.username, '--yes')).code).toBe(0);
    const data = home.LINEDESK_DATA_DIR;
    const kept = (readdirSync(data, { recursive: true }) as string[]).filter((f) =>
      f.endsWith('.jsonl.settled'),
    );
    expect(kept).toHaveLength(1);
    const file = join(data, kept[0]!);
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"n":9,`);
    const listed = await run('pending');
    expect(listed.code).toBe(0);
    // Said once (the notice of every start), with the command that sets it aside.
    expect(count(listed.stderr, 'of an ended job')).toBe(1);
    expect(listed.stderr).toContain(`The intent file ${file} of an ended job is damaged`);
    expect(listed.stderr).toContain(`linedesk pending --set-aside ${file} --yes`);
    expect(listed.stderr).toContain(line.username);
    const json = await run('pending', '--json');
    expect(JSON.parse(json.stdout).damaged).toEqual([expect.objectContaining({ path: file, ended: true })]);
    expect((await run('pending', '--set-aside', file, '--yes')).code).toBe(0);
    expect((await run('pending')).stderr).toMatch(/Nothing is pending/);
  });

  it('an intent directory that cannot be listed is named, exit 3, nothing checked or written; checked once it reads', async () => {
    const { proxy, line, run, journal, home } = await setup({
      rules: [
        { match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'applyLate', ms: 300, answer: 'gateway' } },
      ],
    });
    proxy.hold();
    expect((await run('extend', line.username, '--yes')).code).toBe(3);
    await proxy.landed();
    const data = home.LINEDESK_DATA_DIR;
    const open = (readdirSync(data, { recursive: true }) as string[]).filter(
      (f) => f.endsWith('.jsonl') && f.includes('intents'),
    );
    expect(open).toHaveLength(1);
    const dir = dirname(join(data, open[0]!));
    const entries = journal().length;
    // The directory replaced by a file (chmod blocks nothing for root): it cannot be listed.
    renameSync(dir, `${dir}.away`);
    writeFileSync(dir, '');
    const listed = await run('pending');
    expect(listed.code).toBe(3);
    // Said once, naming the directory once (its disk error does not name it again).
    expect(listed.stderr).toContain(`The intent log cannot be read (${dir}: the directory cannot be listed`);
    expect(count(listed.stderr, 'cannot be listed')).toBe(1);
    expect(count(listed.stderr, dir)).toBe(1);
    expect(listed.stderr).not.toContain('--set-aside');
    expect(journal()).toHaveLength(entries);
    // Fixed: checked from the log, and found applied.
    rmSync(dir);
    renameSync(`${dir}.away`, dir);
    const after = await run('pending');
    expect(after.code).toBe(0);
    expect(journal().at(-1)).toMatchObject({ username: line.username, outcome: 'applied' });
  });
});
