/**
 * The one table of key commands: each carries its keys, scopes, label, group, what it does (`run`)
 * and why it cannot run now (`disabled`), defined by area in areas/. It drives input handling
 * (keys/input.ts), the footer, the `?` help overlay and the key tables of docs/KEYS.md (keys-doc.ts, checked
 * by a test). Rebinding a key here rebinds it everywhere, tests included (they press keys by id).
 *
 * This module imports the areas and hands the table to hints.ts; the areas import hints.ts, never
 * this module. What is exported here is typed by the table: an id that is not in it does not compile.
 */

import type { AppState } from '../store/app-store';
import { APP_COMMANDS } from './areas/app';
import { BULK_COMMANDS } from './areas/bulk';
import { FIND_COMMANDS } from './areas/find';
import { FORM_COMMANDS } from './areas/form';
import { COPY_END_COMMANDS, LINE_COMMANDS } from './areas/line';
import { LINES_COMMANDS } from './areas/lines';
import { COPY_LINK_COMMANDS, LINK_COMMANDS } from './areas/links';
import { MESSAGE_COMMANDS } from './areas/messages';
import { NOTES_COMMANDS } from './areas/notes';
import { OUTPUT_COMMANDS } from './areas/output';
import { RENEWALS_COMMANDS } from './areas/renewals';
import { VIEWS_COMMANDS } from './areas/views';
import { WELCOME_COMMANDS } from './areas/welcome';
import type { Command, Scope } from './command';
import * as hints from './hints';

export type { Command, Scope } from './command';
export {
  helpScopes,
  helpScopesOf,
  helpSections,
  keyLabel,
  setSpokenKeys,
} from './hints';

// Order matters within a scope only: it is help's and docs/KEYS.md's order, and an earlier command
// takes a key a later one of the same scope also names.
export const COMMANDS = [
  ...APP_COMMANDS,
  ...LINE_COMMANDS,
  ...COPY_LINK_COMMANDS,
  ...COPY_END_COMMANDS,
  ...LINES_COMMANDS,
  ...RENEWALS_COMMANDS,
  ...FIND_COMMANDS,
  ...BULK_COMMANDS,
  ...FORM_COMMANDS,
  ...MESSAGE_COMMANDS,
  ...NOTES_COMMANDS,
  ...VIEWS_COMMANDS,
  ...LINK_COMMANDS,
  ...OUTPUT_COMMANDS,
  ...WELCOME_COMMANDS,
] as const;

hints.registerCommands(COMMANDS);

/** The id of a command in the table: a typo is a type error, in handlers and hints alike. */
export type CommandId = (typeof COMMANDS)[number]['id'];
type Typed = Command<CommandId>;

export const command = (id: CommandId): Typed => hints.commandById(id) as Typed;
export const commandsIn = (scope: Scope): Typed[] => hints.commandsIn(scope) as Typed[];
export const lookup = (scope: Scope, key: string): Typed | undefined => hints.lookup(scope, key) as Typed;
export const visibleCommands = (scope: Scope): Typed[] => hints.visibleCommands(scope) as Typed[];
export const keyHintText: (id: CommandId) => string = hints.keyHintText;
export const keyNamed: (s: AppState, id: CommandId) => string | null = hints.keyNamed;
export const said = hints.said;
export const joined = hints.joined;
export const wrapped = hints.wrapped;
