/**
 * `:find` searches notes too (issue 24): each profile's notes (kept on this machine per account),
 * accents folded, phones by digits, over the real sandboxes of findEnv.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountTargetId } from '../../src/app/account-id';
import { findAcrossApi } from '../../src/app/find-across';
import { fileNotes, notesPath } from '../../src/app/notes-file';
import { findRowsOf } from '../../src/services/find-lines';
import { memoryNotes } from '../../src/services/notes';
import { storeOnSandbox } from '../helpers/app';
import { findEnv } from '../helpers/find-env';
import { DEMO_KEY } from '../helpers/sandbox';

describe(':find searches notes', () => {
  it('finds lines by a note in the service in use and in another profile, accents folded', async () => {
    const env = await findEnv();
    const [a] = (await env.alpha.client.listLines({ limit: 1, offset: 20 })).lines;
    const [b] = (await env.beta.client.listLines({ limit: 1, offset: 40 })).lines;
    const stamp = '2026-01-01T00:00:00.000Z';
    const current = memoryNotes({ [a!.id]: { name: 'José Müller', phone: '', text: '', updatedAt: stamp } });
    const dataDir = mkdtempSync(join(tmpdir(), 'ld-find-notes-'));
    fileNotes(notesPath(dataDir, accountTargetId(env.beta.client.baseUrl, DEMO_KEY))).set(
      b!.id,
      { name: '', phone: '+44 (0)7700-900 123', text: 'Herr Müller' },
      b!.username,
    );
    const findAcross = findAcrossApi({
      userAgent: 'test',
      current: { profile: 'alpha', label: 'alpha', baseUrl: env.alpha.sb.baseUrl, client: env.alpha.client },
      configPath: env.configPath,
      notes: { current, dataDir },
    });
    const { store } = await storeOnSandbox({}, { findAcross, notes: current }, env.alpha);
    await store.getState().findAcross('muller');
    const rows = findRowsOf(store.getState().findGroups);
    expect(rows.map((r) => [r.source.id, r.line.id])).toEqual([
      ['alpha', a!.id],
      ['beta', b!.id],
    ]);
    await store.getState().findAcross('447700900123');
    expect(findRowsOf(store.getState().findGroups).map((r) => r.line.id)).toEqual([b!.id]);
  });
});
