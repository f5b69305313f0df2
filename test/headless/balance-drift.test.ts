/**
 * Balance drift in `linedesk account` against the sandbox over HTTP: a change this machine made (its
 * journal) explains the balance's fall; one made by another client with the same key (another
 * device, a panel) does not, and is said once, with the amount. The memory file never makes it fatal.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

interface Drift {
  status: string;
  difference: number | null;
  problem: string | null;
  why: string | null;
}
const driftOf = (stdout: string) => (JSON.parse(stdout) as { drift: Drift; credits: number }).drift;

async function premiumLines(env: NodeJS.ProcessEnv) {
  const r = await headless(['lines', '--type', 'premium', '--status', 'active', '--json', '--limit', '2'], {
    env,
  });
  return (JSON.parse(r.stdout) as { lines: { id: string; username: string }[] }).lines;
}

describe('balance drift', () => {
  it("this machine's change is explained; another client's is said once, with the difference", async () => {
    const { sb, client } = await sandbox({ lines: 30 });
    const home = homeDirs();
    const env = envFor(sb.baseUrl, DEMO_KEY, home);
    const account = () => headless(['account', '--json'], { env });

    const first = await account();
    expect(first.code).toBe(0);
    expect(driftOf(first.stdout).status).toBe('first');

    const [mine, theirs] = await premiumLines(env);
    const ext = await headless(['extend', mine!.username, '--yes', '--json'], { env });
    expect(ext.code).toBe(0);
    const after = await account();
    expect(driftOf(after.stdout)).toMatchObject({ status: 'steady', difference: null });

    // Another device: the same account, a change this machine's journal never saw.
    const before = (await client.me()).credits;
    await client.extendLine({ id: theirs!.id, duration: 1 });
    const spent = before - (await client.me()).credits;
    expect(spent).toBeGreaterThan(0);

    const drifted = await account();
    expect(drifted.code).toBe(0);
    expect(driftOf(drifted.stdout)).toMatchObject({ status: 'drift', difference: -spent });
    const text = await headless(['account'], { env });
    // Said once: the next read judges from the balance it saw.
    expect(text.stdout).not.toContain('Balance drift');
    expect(driftOf((await account()).stdout).status).toBe('steady');

    // In words, on the text output.
    await client.extendLine({ id: theirs!.id, duration: 1 });
    const words = await headless(['account'], { env });
    expect(words.stdout).toMatch(
      /Balance drift\s+the balance moved by −\d+ credits? that no change from this machine explains/,
    );
  });

  it('a memory file that cannot be read is named, never fatal', async () => {
    const { sb } = await sandbox({ lines: 20 });
    const home = homeDirs();
    const env = envFor(sb.baseUrl, DEMO_KEY, home);
    // A directory where the file should be: it cannot be read or replaced.
    mkdirSync(join(home.LINEDESK_DATA_DIR, 'balances.json'), { recursive: true });
    const r = await headless(['account', '--json'], { env });
    expect(r.code).toBe(0);
    const d = driftOf(r.stdout);
    expect(d.status).toBe('unsure');
    expect(d.problem).toContain('balances.json');
    const plain = await headless(['account'], { env });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('balances.json');
  });
});
