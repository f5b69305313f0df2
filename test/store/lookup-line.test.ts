/**
 * `:line USER` looks the line up through the one lookup; a newer lookup stops an older one still
 * reading pages (a name no line has walks the whole list), which then opens nothing and says nothing.
 */
import { describe, expect, it } from 'vitest';
import { storeOnSandbox } from '../helpers/app';

describe(':line lookups', () => {
  it('a newer lookup supersedes an older one: the older ends with nothing, the newer finds its line', async () => {
    const env = await storeOnSandbox({ lines: 60 });
    const s = env.store.getState();
    const line = (await env.client.listLines({ limit: 10 })).lines[3]!;
    const older = s.lookupLine('no-such-line-anywhere');
    const newer = s.lookupLine(line.username.toUpperCase());
    expect((await newer)?.id).toBe(line.id);
    expect(await older).toBeNull();
    // The superseded lookup said nothing (no "No line answers" over the newer one's result).
    expect(env.store.getState().flash?.text ?? '').not.toMatch(/No line answers/);
  });
});
