/**
 * A change service over an intent log on a faulty disk (`faultyIntentFs`): the log in `dir` whose
 * listing and file reads fail as the test switches `failing`. Gives the service, its journal, the
 * events it sent and their notices, and the disk's switches and what it recorded (`written`).
 */
import { fileIntentLog } from '../../src/app/intent-file';
import { memoryJournal } from '../../src/services/changes/journal';
import {
  type ChangeEvent,
  type ChangeServiceDeps,
  createChangeService,
} from '../../src/services/changes/service';
import { faultyIntentFs } from '../helpers/faulty-fs';

const target = { id: 'sandbox:test', label: 'SANDBOX' };

export function serviceOnFaultyLog(
  client: ChangeServiceDeps['client'],
  dir: string,
  more: Partial<ChangeServiceDeps> = {},
) {
  const { fs, failing, written } = faultyIntentFs(dir);
  const journal = memoryJournal();
  const changes = createChangeService({
    client,
    target,
    intents: fileIntentLog(dir, undefined, { fs }),
    journal,
    sleep: async () => {},
    ...more,
  });
  const events: ChangeEvent[] = [];
  changes.subscribe((e) => events.push(e));
  const notices = () => events.flatMap((e) => (e.type === 'notice' ? [e.text] : []));
  return { fs, failing, written, journal, changes, events, notices };
}
