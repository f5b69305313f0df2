/**
 * A command's process never ends in silence: the checks after a lost reply hold it open until the
 * outcome is known or reported unknown (exit 3), and if the event loop empties anyway while a
 * command is unsettled, it says so and exits 3 (a change) or 1, never 0.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE, ensureBundle } from '../helpers/bundle';
import { faultProxy } from '../helpers/fault-proxy';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { books, DEMO_KEY, sandbox } from '../helpers/sandbox';

const ROOT = new URL('../..', import.meta.url).pathname;

async function run(args: readonly string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [...args], { env: { ...process.env, ...env }, cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const [code] = await once(child, 'exit');
  return { code: code as number | null, stdout, stderr };
}

describe('a command that cannot finish its work', () => {
  it('the extend reply is lost, then the server is gone: exit 3 with the unknown outcome, never 0', {
    timeout: 60_000,
  }, async () => {
    ensureBundle();
    const { sb } = await sandbox({ lines: 20 });
    const home = homeDirs();
    const line = JSON.parse(
      (
        await headless(['lines', '--type', 'premium', '--status', 'active', '--ndjson', '--limit', '1'], {
          env: envFor(sb.baseUrl, DEMO_KEY, home),
        })
      ).stdout,
    ) as { username: string };
    const proxy = await faultProxy(sb.baseUrl, {
      rules: [{ match: 'PUT /v1/lines/extend', nth: 1, fault: { kind: 'replyLost' } }],
      // The service disappears with the reply: every check after it finds nobody there.
      onFault: () => void proxy.close(),
    });
    const r = await run([BUNDLE, 'extend', line.username, '--months', '1', '--yes', '--json'], {
      ...envFor(proxy.baseUrl, DEMO_KEY, home),
    });
    expect(books(sb).ledger).toHaveLength(1);
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.stdout);
    expect(doc.lines[0]).toMatchObject({ username: line.username, outcome: 'unknown' });
    expect(r.stderr).toContain('intent log');
  });

  it('the event loop empties while the command is unsettled: it says so; exit 3 for a change, 1 otherwise', async () => {
    const script = (argv: string[]) =>
      `import('./src/headless/process.ts').then(async (m) => process.exit(await m.runHeadlessProcess(${JSON.stringify(argv)}, null, () => new Promise(() => {}))))`;
    const change = await run(
      ['--import', 'tsx', '-e', script(['extend', 'smith0042abcd', '--yes', '--json'])],
      {},
    );
    expect(change.code).toBe(3);
    expect(JSON.parse(change.stderr).error).toMatchObject({ code: 'stopped', exit: 3 });
    expect(change.stderr).toContain('stopped before its work ended');
    const read = await run(['--import', 'tsx', '-e', script(['account'])], {});
    expect(read.code).toBe(1);
    expect(read.stderr).toContain('linedesk: stopped before its work ended.');
  });

  it('a journal that cannot be written is said at the end, with the entries it misses', async () => {
    const { sb } = await sandbox({ lines: 20 });
    const home = homeDirs();
    const env = envFor(sb.baseUrl, DEMO_KEY, home);
    const line = JSON.parse(
      (
        await headless(['lines', '--type', 'premium', '--status', 'active', '--ndjson', '--limit', '1'], {
          env,
        })
      ).stdout,
    ) as { id: string };
    // A directory where the journal file should be: every append fails, the retry at the end too.
    mkdirSync(join(home.LINEDESK_DATA_DIR, 'journal.jsonl'), { recursive: true });
    const r = await headless(['extend', line.id, '--yes'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('could not be written: 1 entry is not in it');
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    expect(JSON.parse(last)).toMatchObject({ operation: 'extend', lineId: line.id, outcome: 'applied' });
  });
});
