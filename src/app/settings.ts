import { DEFAULT_WINDOW } from '../domain/renewals';
import type { Settings, SettingsApi } from '../services/settings';
import { EMPTY_CONFIG, loadConfig, saveConfig } from './config';

/**
 * The user's settings in the config file, for one service: the renewals window is the user's, the
 * low-balance threshold the service's. Read at each call, so a `:profile` change or another
 * linedesk's write is never overwritten with stale data.
 */
export function settingsApi(targetId: string, path?: string, legacyId?: string): SettingsApi {
  const read = (): Settings => {
    const c = loadConfig(path) ?? EMPTY_CONFIG;
    return {
      window: c.renewals ?? DEFAULT_WINDOW,
      // A threshold an earlier version kept per URL still warns until this account sets its own.
      lowBalance: c.lowBalance[targetId] ?? (legacyId ? c.lowBalance[legacyId] : undefined) ?? null,
      noteColumn: c.noteColumn ?? false,
    };
  };
  return {
    read: () => {
      try {
        return read();
      } catch {
        return { window: DEFAULT_WINDOW, lowBalance: null };
      }
    },
    save(patch) {
      try {
        const c = loadConfig(path) ?? EMPTY_CONFIG;
        const lowBalance = { ...c.lowBalance };
        if (patch.lowBalance !== undefined && legacyId) delete lowBalance[legacyId]; // this account's own now
        if (patch.lowBalance === null) delete lowBalance[targetId];
        else if (patch.lowBalance !== undefined) lowBalance[targetId] = patch.lowBalance;
        saveConfig(
          {
            ...c,
            ...(patch.window ? { renewals: patch.window } : {}),
            ...(patch.noteColumn !== undefined ? { noteColumn: patch.noteColumn } : {}),
            lowBalance,
          },
          path,
        );
        return null;
      } catch (err) {
        return err instanceof Error ? err.message : String(err);
      }
    },
  };
}
