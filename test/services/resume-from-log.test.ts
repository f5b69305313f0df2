/**
 * A resume goes by the intent log's version of its job, read once this process holds the job, never
 * by the offer's copy: a job ended meanwhile is given back as the log has it (its outcomes, not "never
 * sent"), and lines another linedesk sent just before this one took the job are never sent again.
 */
import { describe, expect, it } from 'vitest';
import { fileIntentLog } from '../../src/app/intent-file';
import type { IntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { type ChangeEvent, createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { books } from '../helpers/sandbox';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

/** A job of two lines never sent, on disk and released (a resume offers it), and a service over `intents`. */
async function waitingJob(intentsOf: (log: IntentLog) => IntentLog = (log) => log) {
  const { env, client, dir } = await proxiedSandbox({ lines: 10 });
  const [a, b] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
  const job = extendJob('job-resumed', [jobLine(a!), jobLine(b!)], {
    balanceBefore: (await env.client.me()).credits,
  });
  const setup = fileIntentLog(dir);
  setup.begin(job);
  setup.release(job.id);
  const changes = createChangeService({
    client,
    target,
    intents: intentsOf(fileIntentLog(dir)),
    journal: memoryJournal(),
    sleep: async () => {},
  });
  const events: ChangeEvent[] = [];
  changes.subscribe((e) => events.push(e));
  const notices = () => events.flatMap((e) => (e.type === 'notice' ? [e.text] : []));
  /** Another linedesk's records of the job: both lines applied (as if it had resumed and sent them). */
  const sentElsewhere = () => {
    const other = fileIntentLog(dir);
    for (const l of job.lines)
      other.line(job.id, { ...l, state: 'done', sentAt: Date.now(), detail: 'applied' });
    return other;
  };
  return { env, job, changes, notices, sentElsewhere };
}

describe('a resume, from the intent log', () => {
  it('of a job ended meanwhile gives back the log’s version (its outcomes), and sends nothing', async () => {
    const { env, job, changes, notices, sentElsewhere } = await waitingJob();
    sentElsewhere().end(job.id);
    const final = await changes.runChange(job, { bulk: true });
    expect(final.lines.map((l) => l.state)).toEqual(['done', 'done']);
    expect(notices()).toContainEqual(expect.stringMatching(/^This job ended meanwhile/));
    expect(books(env.sb).ledger).toHaveLength(0);
  }, 30_000);

  it('reads the job once it holds it: lines another linedesk sent just before are not sent again', async () => {
    let before: (() => void) | null = null;
    const { env, job, changes, sentElsewhere } = await waitingJob((log) => ({
      ...log,
      // Another linedesk sends the lines and lets the job go just as this one takes it.
      claim: (id) => {
        const then = before;
        before = null;
        then?.();
        return log.claim(id);
      },
    }));
    before = () => sentElsewhere();
    const final = await changes.runChange(job, { bulk: true, linesReadAt: Date.now() });
    expect(books(env.sb).ledger).toHaveLength(0);
    expect(final.lines.map((l) => l.state)).toEqual(['done', 'done']);
  }, 30_000);
});
