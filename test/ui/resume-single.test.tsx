/**
 * A single change's job interrupted before it was sent: the offer says, as the bulk rows do, why its
 * line is not marked again (not found now), naming it, not nothing.
 */
import { describe, expect, it } from 'vitest';
import { renderApp } from '../helpers/app';
import { offer, resumeSandbox } from '../helpers/interrupted';
import { extendJob, jobLine } from '../helpers/jobs';

describe('the resume offer of a single change never sent', () => {
  it('says why its line is not marked again', async () => {
    const { env, client, intents } = await resumeSandbox();
    const [line] = (await env.client.listLines({ limit: 1 })).lines;
    intents.begin(extendJob('job-one', [jobLine(line!)]));
    // Deleted since (another client): the lookup reads the whole short list and does not find it.
    env.sb.repo.deleteLine(line!.id);
    const app = await renderApp({}, { client, intents }, env);
    await app.waitFrame((f) => f.includes('never sent') && !app.store.getState().recovery?.checking);
    await app.waitFrame(() => app.store.getState().markedAgain.get(line!.id) === 'not found');
    await app.waitFrame((f) => offer(f).includes(`extend ${line!.username}`));
    expect(offer(app.frame())).toContain(
      `extend ${line!.username}: never sent, not found now, not marked again`,
    );
    expect(app.store.getState().marked.has(line!.id)).toBe(false);
  });
});
