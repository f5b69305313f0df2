/**
 * `lines --search` and `line` find lines by their notes too (issue 24), as the browser's `/` does:
 * notes are kept on this machine, so the commands read the account's notes file.
 */
import { describe, expect, it } from 'vitest';
import { accountTargetId } from '../../src/app/account-id';
import { fileNotes, notesPath } from '../../src/app/notes-file';
import { envFor, headless, homeDirs } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

async function setup() {
  const env = await sandbox({ lines: 60 });
  const [x, y, z] = (await env.client.listLines({ limit: 100, offset: 40 })).lines;
  const home = homeDirs();
  const notes = fileNotes(notesPath(home.LINEDESK_DATA_DIR, accountTargetId(env.client.baseUrl, DEMO_KEY)));
  notes.set(x!.id, { name: 'José Müller', phone: '', text: '' }, x!.username);
  notes.set(y!.id, { name: '', phone: '+44 (0)7700-900 123', text: 'Mullerstraße' }, y!.username);
  notes.set(z!.id, { name: 'Ana Ruiz', phone: '', text: '' }, z!.username);
  return { x: x!, y: y!, z: z!, cmdEnv: envFor(env.sb.baseUrl, DEMO_KEY, home) };
}

describe('commands search notes', () => {
  it('lines --search finds lines by an accented name typed plain and by a phone number’s digits', async () => {
    const { x, y, cmdEnv } = await setup();
    const byName = await headless(['lines', '--search', 'muller', '--json'], { env: cmdEnv });
    expect(byName.code).toBe(0);
    expect(
      JSON.parse(byName.stdout)
        .lines.map((l: { id: string }) => l.id)
        .sort(),
    ).toEqual([x.id, y.id].sort());
    const byPhone = await headless(['lines', '--search', '447700900123', '--ndjson'], { env: cmdEnv });
    expect(byPhone.code).toBe(0);
    expect(
      byPhone.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([y.id]);
  });

  it('line: a text no username answers to names the one line whose note matches; several are listed', async () => {
    const { x, y, z, cmdEnv } = await setup();
    const one = await headless(['line', 'ana ruiz', '--json'], { env: cmdEnv });
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout).line.id).toBe(z.id);
    const several = await headless(['line', 'muller', '--json'], { env: cmdEnv });
    expect(several.code).toBe(1);
    const err = JSON.parse(several.stderr).error;
    expect(err.code).toBe('line_ambiguous');
    expect(err.message).toContain(x.username);
    expect(err.message).toContain(y.username);
  });
});
