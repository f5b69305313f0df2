/**
 * The change service for a command: made on the command's services (the same client, account,
 * journal and intent log as the app), what it says that the app would flash in warning or error
 * printed on stderr, and shut down with the command (a signal: nothing new is sent).
 */
import { type ChangeService, createChangeService } from '../../services/changes/service';
import type { Ctx, Services } from '../session';

export function changeServiceOf(ctx: Ctx, sv: Services): ChangeService {
  const changes = createChangeService({
    client: sv.client,
    target: sv.target,
    ...(sv.journal ? { journal: sv.journal } : {}),
    ...(sv.intents ? { intents: sv.intents } : {}),
    ...(sv.foreignIntents ? { foreignIntents: sv.foreignIntents } : {}),
    holdMs: sv.holdMs,
    now: sv.now,
    sleep: sv.sleep,
    logError: sv.logError,
  });
  changes.subscribe((e) => {
    if (e.type === 'notice' && (e.tone === 'error' || e.tone === 'warning'))
      ctx.out.message(e.text, 'yellow');
  });
  sv.onStop((graceMs) => changes.shutdown(graceMs));
  return changes;
}
