/**
 * A check again (resume.recheck) does only what it says: the offer's unknown lines checked with the
 * server, its lines not marked yet looked up. Not the whole recovery at start again: no lookup of
 * jobs recorded under another key, no notice of damaged files said twice.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../helpers/app';
import { offer, resumeSandbox } from '../helpers/interrupted';
import { extendJob, jobLine } from '../helpers/jobs';
import { cleanups } from '../helpers/wait';

describe('a check again of the resume offer', () => {
  it('checks the unknown lines, and does not run the recovery at start again', async () => {
    const { env, client, intents } = await resumeSandbox();
    const [a, b] = (await env.client.listLines({ limit: 2 })).lines;
    // Sent just now, outcome unknown: the check at start sees no change yet (its hold window).
    intents.begin(
      extendJob('job-open', [jobLine(a!, { state: 'unknown', sentAt: Date.now() }), jobLine(b!)]),
    );
    // The recovery at start asks for jobs recorded under another key once; a check again must not.
    let foreignAsked = 0;
    const foreignIntents = () => {
      foreignAsked++;
      return [];
    };
    const app = await renderApp({}, { client, intents, foreignIntents }, env);
    await app.waitFrame(
      (f) => offer(f).includes('1 unknown') && f.includes('r checks the unknown ones again'),
    );
    expect(foreignAsked).toBe(1);
    // Every check the offer runs, start to end (the store's own changes, none missed).
    let checks = 0;
    const stop = app.store.subscribe((now, before) => {
      if (before.recovery?.checking && now.recovery && !now.recovery.checking) checks++;
    });
    cleanups.push(async () => stop());
    await app.press('resume.recheck');
    await vi.waitFor(() => expect(checks).toBe(1));
    expect(foreignAsked).toBe(1);
    await app.waitFrame((f) => offer(f).includes('1 unknown'));
  });
});
