import { type Command, type CommandId, command, keyLabel, lookup } from '../commands/keymap';

/**
 * The welcome screen's keys (commands/areas/welcome.ts), for a screen that runs before the store: a
 * key is looked up in its mode's scope, and while an account is being checked only quitting works.
 * The screen acts on what this finds and names a key only through `welcomeKeyNamed`, so the keys
 * its text shows are the keys that work.
 */
export interface WelcomeAt {
  /** Choosing (`welcome`) or typing the account (`connect`). */
  readonly scope: 'welcome' | 'connect';
  /** An account check is in flight: its answer moves the screen on, no key but quitting does. */
  readonly checking: boolean;
}

const QUITS: readonly string[] = ['welcome.quit', 'connect.quit'] satisfies CommandId[];

/** The command `name` runs on the welcome now, if any. */
export function resolveWelcomeKey(at: WelcomeAt, name: string): Command<CommandId> | undefined {
  const cmd = lookup(at.scope, name);
  return cmd && (!at.checking || QUITS.includes(cmd.id)) ? cmd : undefined;
}

/** A command's key as the welcome's text names it ("Enter"): its first key that runs it now, else null. */
export function welcomeKeyNamed(at: WelcomeAt, id: CommandId): string | null {
  const key = command(id).keys.find((k) => resolveWelcomeKey(at, k)?.id === id);
  return key === undefined ? null : keyLabel(key);
}
