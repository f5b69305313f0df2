import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client';
import type { LineListItem } from '../../src/api/contract';
import { lookupPasted, resolveItem } from '../../src/services/paste-lookup';
import { storeOnSandbox } from '../helpers/app';
import { broken, withNamelessLine } from '../helpers/broken-item';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';
import { brokenLines } from '../helpers/unreached';

/**
 * The one lookup of a username or id (issue 24): trimmed; an exact match first, else the one line
 * that matches ignoring case; several that differ only by case are listed, never guessed.
 */

const lookup = (client: Parameters<typeof lookupPasted>[0], items: string[]) =>
  lookupPasted(client, items, { cancelled: () => false, progress: () => {} });

/** Seeded lines of the demo account, and lines whose usernames differ only by case. */
async function withTwins(twins: readonly string[] = ['CaseTwinLine07', 'casetwinline07', 'CASETWINLINE07']) {
  const env = await sandbox({ lines: 60 });
  for (const username of twins) await env.client.createLine({ duration: 1, username });
  const all = (await env.client.listLines({ limit: 100 })).lines;
  return { ...env, all };
}

/** The rule, spelled out over every line of the account: the oracle for the property. */
function expected(all: readonly LineListItem[], item: string) {
  const t = item.trim();
  const exact = all.filter((l) => l.username === t || l.id.toLowerCase() === t.toLowerCase());
  if (exact.length) return { kind: 'found', ids: exact.map((l) => l.id) };
  const folded = all.filter((l) => l.username.toLowerCase() === t.toLowerCase());
  if (folded.length === 1) return { kind: 'found', ids: folded.map((l) => l.id) };
  if (folded.length > 1) return { kind: 'ambiguous', ids: folded.map((l) => l.id).sort() };
  return { kind: 'none', ids: [] };
}

/** A variant of a name as a ticket has it: each letter's case flipped or not, spaces around it. */
const variant = (name: string) =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }),
      fc.constantFrom('', ' ', '  ', '\t'),
      fc.constantFrom('', ' ', '\t '),
    )
    .map(
      ([flips, before, after]) =>
        `${before}${[...name].map((c, i) => (flips[i] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('')}${after}`,
    );

describe('one lookup for a username or id', () => {
  it('finds a username typed in another case, or with spaces around it', async () => {
    const { client, all } = await withTwins([]);
    const line = all[37]!;
    const upper = line.username.toUpperCase();
    const padded = ` ${line.username} `;
    const idUpper = ` ${line.id.toUpperCase()}`;
    const { found, missing } = await lookup(client, [upper, padded, idUpper]);
    expect(found.get(upper)?.id).toBe(line.id);
    expect(found.get(padded)?.id).toBe(line.id);
    expect(found.get(idUpper)?.id).toBe(line.id);
    expect(missing).toEqual([]);
  });

  it('takes the exact username first, and lists usernames that differ only by case, never guessing', async () => {
    const { client, all } = await withTwins();
    const twins = all.filter((l) => l.username.toLowerCase() === 'casetwinline07');
    expect(twins).toHaveLength(3);
    const { found, ambiguous, missing } = await lookup(client, [
      'casetwinline07',
      'CaseTwinLine07',
      'cAsEtWiNlInE07',
    ]);
    expect(found.get('casetwinline07')?.username).toBe('casetwinline07');
    expect(found.get('CaseTwinLine07')?.username).toBe('CaseTwinLine07');
    expect(found.has('cAsEtWiNlInE07')).toBe(false);
    expect(
      ambiguous
        .get('cAsEtWiNlInE07')
        ?.map((l) => l.username)
        .sort(),
    ).toEqual(['CASETWINLINE07', 'CaseTwinLine07', 'casetwinline07'].sort());
    expect(missing).toEqual([]);
  });

  it('property: random case and space variants of existing usernames follow the rule', async () => {
    const { client, all } = await withTwins(['MixCaseLine01', 'mixcaseline01', 'LonelyLine02']);
    const names = all.map((l) => l.username);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names).chain((n) => variant(n)),
        async (item) => {
          const { found, ambiguous, missing } = await lookup(client, [item]);
          const want = expected(all, item);
          if (want.kind === 'found') expect(found.get(item)?.id).toBe(want.ids[0]);
          else expect(found.has(item)).toBe(false);
          if (want.kind === 'ambiguous')
            expect(
              ambiguous
                .get(item)
                ?.map((l) => l.id)
                .sort(),
            ).toEqual(want.ids);
          else expect(ambiguous.has(item)).toBe(false);
          expect(missing.includes(item)).toBe(want.kind === 'none');
        },
      ),
      { numRuns: 40 },
    );
  });

  it('property (the rule alone): exact first, the unique case-insensitive match next, several listed', () => {
    const line = (username: string, i: number): LineListItem =>
      ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, username }) as LineListItem;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z]{3,6}$/), { minLength: 1, maxLength: 6 }).chain((bases) =>
          fc.tuple(
            // Each base name 1–3 times, each copy in a case of its own (a set differing only by case).
            fc.tuple(
              ...bases.map((b) =>
                fc.uniqueArray(
                  variant(b).map((v) => v.trim()),
                  { minLength: 1, maxLength: 3 },
                ),
              ),
            ),
            fc.constantFrom(...bases).chain((b) => variant(b)),
          ),
        ),
        ([groups, item]) => {
          const lines = groups.flat().map(line);
          const got = resolveItem(lines, item);
          const want = expected(lines, item);
          expect(got.kind).toBe(want.kind);
          if (got.kind === 'found') expect(got.line.id).toBe(want.ids[0]);
          if (got.kind === 'ambiguous') expect(got.lines.map((l) => l.id).sort()).toEqual(want.ids);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('paste to mark finds a username pasted in capitals, and names a case-only clash instead of marking', async () => {
    const env = await storeOnSandbox({ lines: 60 });
    await env.client.createLine({ duration: 1, username: 'TwinPasteLine1' });
    await env.client.createLine({ duration: 1, username: 'twinpasteline1' });
    // Any seeded line but the twins (where the twins sort depends on the day the test runs).
    const line = (await env.client.listLines({ limit: 100 })).lines.filter(
      (l) => l.username.toLowerCase() !== 'twinpasteline1',
    )[41]!;
    await env.store.getState().markPasted(`${line.username.toUpperCase()}\nTWINPASTELINE1`);
    const s = env.store.getState();
    expect([...s.marked.keys()]).toEqual([line.id]);
    expect(s.flash?.text).toMatch(/Marked 1 of 2 pasted/);
    expect(s.flash?.text).toMatch(/"TWINPASTELINE1" could be TwinPasteLine1 or twinpasteline1/);
  });

  it('paste to mark says "not found" only of what is proven absent; one listed unreadably is said so', async () => {
    const { env, client } = await brokenLines();
    const { store } = await storeOnSandbox({}, { client }, env);
    await store.getState().markPasted(`${broken.username}\nnosuchpasted99`);
    const text = store.getState().flash?.text ?? '';
    expect(text).toMatch(/Marked 0 of 2 pasted/);
    expect(text).toMatch(/not found: nosuchpasted99/);
    expect(text).toContain(
      `not readable (listed by the server in a form that does not read): ${broken.username}`,
    );
    expect(text).not.toMatch(/not found: [^;]*brokenline01/);
  });

  it('a line looked up by name that the server lists unreadably is said so, never "No line answers"', async () => {
    const { env, client } = await brokenLines();
    const { store } = await storeOnSandbox({}, { client }, env);
    expect(await store.getState().lookupLine(broken.username)).toBeNull();
    expect(store.getState().flash?.text).toBe(
      `"${broken.username}" was not readable (listed by the server in a form that does not read)`,
    );
  });

  it('paste to mark: a name no line that reads has, with a line listed without its id, may be that one: "not identified"', async () => {
    const env = await sandbox({ lines: 40 });
    const [line] = (await env.client.listLines({ offset: 7, limit: 1 })).lines;
    const srv = await withNamelessLine(env.sb.baseUrl, line!.id);
    const client = createClient({ baseUrl: srv.baseUrl, apiKey: DEMO_KEY, retry: { maxAttempts: 1 } });
    try {
      const { store } = await storeOnSandbox({}, { client }, env);
      await store.getState().markPasted(`${line!.username}\nnosuchpasted99`);
      const text = store.getState().flash?.text ?? '';
      expect(text).toMatch(/Marked 0 of 2 pasted/);
      // Its username reads: that one is there, unread; the other may be it: neither "not found".
      expect(text).toContain(
        `not readable (listed by the server in a form that does not read): ${line!.username}`,
      );
      expect(text).toContain(
        'not identified (it may be the line the server listed in a form that does not read): nosuchpasted99',
      );
      expect(text).not.toMatch(/not found/);
    } finally {
      await client.close();
      await srv.close();
    }
  });
});
