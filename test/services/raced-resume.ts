/**
 * A resume that another linedesk races as it begins: a job in the intent log (released, as a linedesk
 * that stopped leaves it) with its balance window open (line a applied from it) and line b never
 * sent; as the resume writes the job's file whole (`begin`), another linedesk (a live process that is
 * not this one) begins a job of this account (line c: spending from then on) and does `alsoOther`.
 * `mine` lays the resume's own log's behaviour over the file log (a disk that refuses a record, say).
 * The service is made, not started: the test offers (`recoverIntents`) and resumes the job.
 */
import { fileIntentLog } from '../../src/app/intent-file';
import type { IntentLog } from '../../src/services/changes/intent-log';
import { memoryJournal } from '../../src/services/changes/journal';
import { createChangeService } from '../../src/services/changes/service';
import { extendJob, jobLine } from '../helpers/jobs';
import { proxiedSandbox } from './proxied-sandbox';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

export async function racedResume(
  opts: {
    readonly alsoOther?: (other: IntentLog, jobId: string) => void;
    readonly mine?: (mine: IntentLog, jobId: string) => Partial<IntentLog>;
  } = {},
) {
  const { env, client, dir } = await proxiedSandbox({ lines: 10 });
  const [a, b, c] = (await env.client.listLines({ limit: 10 })).lines.filter((l) => !l.is_trial && l.enabled);
  const credits = (await env.client.me()).credits;
  const job = extendJob('job-resumed', [jobLine(a!, { state: 'done', detail: 'applied' }), jobLine(b!)], {
    balanceBefore: credits,
  });
  const setup = fileIntentLog(dir);
  setup.begin(job);
  setup.release(job.id);
  const other = fileIntentLog(dir, { pid: process.ppid, start: null });
  const mine = fileIntentLog(dir);
  let raced = false;
  const intents: IntentLog = {
    ...mine,
    ...opts.mine?.(mine, job.id),
    begin(j) {
      if (j.id === job.id && !raced) {
        raced = true;
        other.begin(extendJob('job-other', [jobLine(c!)], { balanceBefore: null }));
        opts.alsoOther?.(other, job.id);
      }
      mine.begin(j);
    },
  };
  const service = createChangeService({
    client,
    target,
    intents,
    journal: memoryJournal(),
    sleep: async () => {},
  });
  return {
    env,
    job,
    b: b!,
    service,
    raced: () => raced,
    /** The job as the log keeps it now. */
    logged: () => fileIntentLog(dir).current!([job.id]).get(job.id),
  };
}
