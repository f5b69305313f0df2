import { DEFAULT_WINDOW } from '../domain/renewals';
import type { Settings, SettingsApi } from '../services/settings';
import { type Config, EMPTY_CONFIG, loadConfig, saveConfig } from './config';

/**
 * The user's settings in the config file, for one account: the renewals window is the user's, the
 * low-balance threshold the account's. `start`: the config as the start read it, answered from until
 * something is saved (the file is not read again for it); without it, each read reads the file. A
 * save reads the file first, so a `:profile` change or another linedesk's write is never overwritten
 * with stale data.
 */
export function settingsApi(targetId: string, path?: string, start?: Config | null): SettingsApi {
  let current: Config | null | undefined = start;
  const read = (): Settings => {
    const c = (current === undefined ? loadConfig(path) : current) ?? EMPTY_CONFIG;
    return {
      window: c.renewals ?? DEFAULT_WINDOW,
      lowBalance: c.lowBalance[targetId] ?? null,
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
        if (patch.lowBalance === null) delete lowBalance[targetId];
        else if (patch.lowBalance !== undefined) lowBalance[targetId] = patch.lowBalance;
        const next: Config = {
          ...c,
          ...(patch.window ? { renewals: patch.window } : {}),
          ...(patch.noteColumn !== undefined ? { noteColumn: patch.noteColumn } : {}),
          lowBalance,
        };
        saveConfig(next, path);
        if (current !== undefined) current = next;
        return null;
      } catch (err) {
        return err instanceof Error ? err.message : String(err);
      }
    },
  };
}
