/**
 * A line whose `sending` record the intent log refuses is never sent (the engine's rule), and ends
 * "not sent". Like every other line ended before sending it is journaled so (nothing reached the
 * service), and shown as such (the line event); when the journal cannot take the entry, that is said.
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import type { IntentLog } from '../../src/services/changes/intent-log';
import { type Journal, memoryJournal } from '../../src/services/changes/journal';
import { outcomeOf } from '../../src/services/changes/outcome';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/** A job of two lines; the disk refuses the first line's `sending` record (and, once refused, its next). */
async function run(journalFor: (refusedId: string) => Journal) {
  const { env, proxy, client, dir } = await proxiedSandbox({ lines: 10 });
  const [a, b] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
  const journal = journalFor(a!.id);
  const log = fileIntentLog(dir);
  const intents: IntentLog = {
    ...log,
    line(jobId, l) {
      if (l.id === a!.id && l.state !== 'pending')
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      log.line(jobId, l);
    },
  };
  const changes = createChangeService({ client, target, intents, journal, sleep: async () => {} });
  const notes: string[] = [];
  const shown = new Map<string, string>();
  changes.subscribe((e) => {
    if (e.type === 'notice') notes.push(e.text);
    if (e.type === 'line') shown.set(e.line.id, e.line.state);
  });
  const spent = books(env.sb).ledger.length;
  const final = await changes.runChange(extendJob('job-refused', [jobLine(a!), jobLine(b!)]), {
    bulk: true,
    linesReadAt: Date.now(),
  });
  await changes.shutdown(0);
  // Only b's request left, and only b was charged.
  expect(proxy.forwarded.get('PUT /v1/lines/extend') ?? 0).toBe(1);
  expect(books(env.sb).ledger.length).toBe(spent + 1);
  const [la, lb] = final.lines;
  expect(outcomeOf(la!)).toBe('not sent');
  expect(la!.detail).toMatch(/^not sent: the intent log could not be written/);
  expect(outcomeOf(lb!)).toBe('applied');
  expect(shown.get(a!.id)).toBe('failed');
  return { a: a!, b: b!, notes };
}

describe('a line whose `sending` record is refused', () => {
  it('is journaled not sent, beside the lines that were sent', async () => {
    const journal = memoryJournal();
    const { a, b } = await run(() => journal);
    const last = (id: string) => journal.entries.filter((e) => e.lineId === id).at(-1);
    expect(last(a.id)).toMatchObject({ outcome: 'not sent', operation: 'extend' });
    expect(last(b.id)).toMatchObject({ outcome: 'applied' });
  }, 30_000);

  it('a journal that cannot take its entry: said', async () => {
    // The journal refuses the refused line's entry only: b's is written.
    const { notes } = await run((refused) => {
      const journal = memoryJournal();
      return {
        ...journal,
        append(e) {
          if (e.lineId === refused) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
          journal.append(e);
        },
      };
    });
    expect(notes.some((n) => /^Could not write the journal/.test(n))).toBe(true);
  }, 30_000);
});
