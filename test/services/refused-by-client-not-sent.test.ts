/**
 * A line the client's own checks refuse before its request leaves (a body the contract refuses:
 * "id must be a UUID"; outcome `not_sent`, not a network failure) ends "not sent" with its reason:
 * recorded and journaled so, never with a `sentAt` (nothing left), so the file and the words never
 * count it as sent. A line whose "not sent" record the log refused is still `sending` in its file:
 * the next start checks it (never sends it again), said so, never "its request left".
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import { RequestValidationError } from '../../src/api/errors';
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/** The client, its extend of `refused` stopped by its own check before anything is written. */
const checking = (client: ApiClient, refused: string): ApiClient => ({
  ...client,
  extendLine: async (body) => {
    if (body.id === refused)
      throw new RequestValidationError('PUT /v1/lines/extend', [
        { path: ['id'], message: 'id must be a UUID' },
      ]);
    return client.extendLine(body);
  },
});

describe('a line the client refuses before its request leaves', () => {
  it('ends not sent with its reason, never with sentAt, in the result, the file and the journal', async () => {
    const { env, client, dir, proxy } = await proxiedSandbox({ lines: 10 });
    const [a, b] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const journal = memoryJournal();
    const changes = createChangeService({
      client: checking(client, a!.id),
      target,
      intents: fileIntentLog(dir),
      journal,
      sleep: async () => {},
    });
    const job = extendJob('job-checked', [jobLine(a!), jobLine(b!)]);
    const final = await changes.runChange(job, { bulk: true, linesReadAt: Date.now() });
    const line = final.lines.find((l) => l.id === a!.id)!;
    expect(line).toMatchObject({ state: 'failed', notSent: true, provenNotApplied: true });
    expect(line.detail).toContain('id must be a UUID');
    expect(line.sentAt).toBeUndefined();
    // The other line went (one extend reached the service).
    expect(final.lines.find((l) => l.id === b!.id)!.state).toBe('done');
    expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBe(1);
    // On disk: the job ended, its refused line's last record not sent, without a sentAt.
    const ended = fileIntentLog(dir).settled!().find((j) => j.id === job.id)!;
    expect(ended.lines.find((l) => l.id === a!.id)).toMatchObject({ state: 'failed', notSent: true });
    expect(ended.lines.find((l) => l.id === a!.id)!.sentAt).toBeUndefined();
    const entry = journal.entries.find((e) => e.lineId === a!.id)!;
    expect(entry.outcome).toBe('not sent');
    expect(entry.detail).toContain('id must be a UUID');
  }, 30_000);

  it('its "not sent" record refused: the file has it sending, the next start checks it, said as such', async () => {
    const { env, client, dir, proxy } = await proxiedSandbox({ lines: 10 });
    const [a] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
    const intents = fileIntentLog(dir);
    // The disk fails from the line's "not sent" record on (its `sending` record went through): that
    // record and the job's end are refused, so the file keeps the line as sending.
    let failing = false;
    const eio = () => Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    const notices: string[] = [];
    const changes = createChangeService({
      client: checking(client, a!.id),
      target,
      intents: {
        ...intents,
        line(id, l) {
          if (failing) throw eio();
          intents.line(id, l);
          if (l.state === 'sending') failing = true;
        },
        end(id) {
          if (failing) throw eio();
          intents.end(id);
        },
      },
      journal: memoryJournal(),
      sleep: async () => {},
    });
    changes.subscribe((e) => {
      if (e.type === 'notice') notices.push(e.text);
    });
    const job = extendJob('job-kept', [jobLine(a!)]);
    const final = await changes.runChange(job, { bulk: true, linesReadAt: Date.now() });
    const l = final.lines[0]!;
    expect(l).toMatchObject({ state: 'failed', notSent: true, keptOnDisk: true });
    expect(l.sentAt).toBeUndefined();
    expect(l.detail).toContain('the next start checks this line again');
    expect(proxy.forwarded.get('PUT /v1/lines/extend')).toBeUndefined();
    const said = notices.find((n) => n.includes('intent log could not be written'))!;
    expect(said).toContain('checks 1 line');
    expect(said).not.toContain('offers');
    expect(said).not.toContain('request left');
    // The file has it sending: the next start checks it, never offers (sends) it.
    expect(fileIntentLog(dir).open()[0]!.lines[0]!.state).toBe('sending');
  }, 30_000);
});
