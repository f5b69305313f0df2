import type { RenewalWindow } from '../domain/renewals';

/** What the user sets and the config keeps: the renewals window, the low-balance threshold. The
 *  interfaces here are what both front-ends ask through; the app layer backs them with the config
 *  file (app/settings.ts, app/profiles.ts). */
export interface Settings {
  readonly window: RenewalWindow;
  /** The balance below which the header warns (this profile's), or null for no warning. */
  readonly lowBalance: number | null;
  /** The lines browser shows the Note column (notes are kept on this machine). */
  readonly noteColumn?: boolean;
}

export interface SettingsApi {
  read(): Settings;
  /** Saves a change; an error message when it could not be saved, or null. */
  save(patch: Partial<Settings>): string | null;
}

export interface ProfileSummary {
  readonly name: string;
  readonly baseUrl: string;
  /** The key is only ever shown as its last four characters. */
  readonly keyTail: string;
  readonly isDefault: boolean;
}

/** Profiles in the config file (the app layer owns the file; the store only asks). */
export interface ProfilesApi {
  readonly current: string | null;
  list(): ProfileSummary[];
  exists(name: string): boolean;
  /** Checks the account first; an error message, or null when saved. */
  add(name: string, baseUrl: string, apiKey: string): Promise<string | null>;
  rename(from: string, to: string): string | null;
  remove(name: string): string | null;
}
