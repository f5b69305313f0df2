/**
 * The commands that take a username or id look it up as the app's `/` finds it (issue 24): trimmed,
 * exact first, else the one line matching ignoring case; a case-only clash is listed, never guessed.
 */
import { describe, expect, it } from 'vitest';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

async function setup() {
  const env = await sandbox({ lines: 40 });
  await env.client.createLine({ duration: 1, username: 'TwinCommand01' });
  await env.client.createLine({ duration: 1, username: 'twincommand01' });
  // A line of the seed, never one of the twins (ids are random: the 24th by id may be one).
  const line = (await env.client.listLines({ limit: 100 })).lines.filter(
    (l) => l.username.toLowerCase() !== 'twincommand01',
  )[23]!;
  return { ...env, line, cmdEnv: envFor(env.sb.baseUrl, DEMO_KEY) };
}

describe('commands look a line up by what people type', () => {
  it('line: a username in capitals, or with spaces around it, is the line', async () => {
    const { line, cmdEnv } = await setup();
    for (const typed of [line.username.toUpperCase(), ` ${line.username} `]) {
      const r = await headless(['line', typed, '--json'], { env: cmdEnv });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).line).toMatchObject({ id: line.id, username: line.username });
    }
  });

  it('message details: a username in capitals fills the message for that line', async () => {
    const { line, cmdEnv } = await setup();
    const r = await headless(['message', 'details', line.username.toUpperCase(), '--json'], { env: cmdEnv });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: line.id, username: line.username });
  });

  it('usernames differing only by case: the exact one is taken, another spelling lists them and exits 1', async () => {
    const { cmdEnv } = await setup();
    const exact = await headless(['line', 'twincommand01', '--json'], { env: cmdEnv });
    expect(exact.code).toBe(0);
    expect(JSON.parse(exact.stdout).line.username).toBe('twincommand01');
    const clash = await headless(['line', 'TWINCOMMAND01', '--json'], { env: cmdEnv });
    expect(clash.code).toBe(1);
    expect(JSON.parse(clash.stderr).error).toMatchObject({
      code: 'line_ambiguous',
      message:
        '"TWINCOMMAND01" could be TwinCommand01 or twincommand01 (usernames differ by case): give the one you mean',
    });
    const ext = await headless(['extend', 'TWINCOMMAND01', '--months', '1', '--json'], { env: cmdEnv });
    expect(ext.code).toBe(1);
    expect(ext.stderr).toMatch(/could be TwinCommand01 or twincommand01/);
  });

  it('extend --stdin: names in capitals are found; a case-only clash is named and left out', async () => {
    const { line, cmdEnv } = await setup();
    const r = await headless(['extend', '--stdin', '--months', '1', '--json'], {
      env: cmdEnv,
      stdin: `${line.username.toUpperCase()}\nTWINCOMMAND01\n`,
    });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout).lines.map((l: { id: string }) => l.id)).toEqual([line.id]);
    expect(r.stderr).toMatch(/stdin line 2: "TWINCOMMAND01" could be TwinCommand01 or twincommand01/);
  });
});

describe('pending --settle looks the open line up the same way', () => {
  it('a username in capitals settles its open change', async () => {
    const env = await sandbox({ lines: 20 });
    const proxy = await faultProxy(env.sb.baseUrl, {
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'resetBefore' } }],
    });
    try {
      const home = homeDirs();
      const line = (await env.client.listLines({ limit: 20, type: 'premium' })).lines[0]!;
      const run = (...argv: string[]) => headless(argv, { env: envFor(proxy.baseUrl, DEMO_KEY, home) });
      expect((await run('extend', line.username, '--yes')).code).toBe(3);
      const ok = await run(
        'pending',
        '--settle',
        ` ${line.username.toUpperCase()} `,
        '--as',
        'not-applied',
        '--confirm',
        line.username,
      );
      expect(ok.stderr).not.toMatch(/No open outcome/);
      expect(ok.code).toBe(0);
      expect((await run('pending')).code).toBe(0);
    } finally {
      await proxy.landed();
      await proxy.close();
    }
  });
});
