/**
 * One registration per view on the stack (store/view-stack.ts): the component that draws it, and
 * whether it is drawn over the view below (under it, taking some of its rows) or fills the body.
 * A view's id is its commands' scope in the command table, so its keys, footer and help come from
 * there (keys/dispatch.ts, layout/Footer.tsx, overlays/HelpOverlay.tsx); docs/KEYS.md names the scope
 * (keys/keys-doc.ts). App.tsx draws the stack from this table; a view missing here is a type error.
 */
import type { ComponentType } from 'react';
import type { ViewId } from '../store/types';
import { ActionDialog } from './overlays/ActionDialog';
import { BouquetPicker } from './overlays/BouquetPicker';
import { BulkDialog } from './overlays/BulkDialog';
import { ColumnsPicker } from './overlays/ColumnsPicker';
import { CommandPalette } from './overlays/CommandPalette';
import { CopyMenu } from './overlays/CopyMenu';
import { HelpOverlay } from './overlays/HelpOverlay';
import { LineForm } from './overlays/LineForm';
import { MessagePicker } from './overlays/MessagePicker';
import { NoteForm } from './overlays/NoteForm';
import { OutputOverlay } from './overlays/OutputOverlay';
import { ProfileAddForm, ProfilesOverlay } from './overlays/ProfilesOverlay';
import { ResumeDialog } from './overlays/ResumeDialog';
import { AccountScreen } from './screens/AccountScreen';
import { BouquetsScreen } from './screens/BouquetsScreen';
import { FindScreen } from './screens/FindScreen';
import { JournalScreen } from './screens/JournalScreen';
import { LineDetailScreen } from './screens/LineDetailScreen';
import { LinesScreen } from './screens/LinesScreen';
import { MarksScreen } from './screens/MarksScreen';
import { PackagesScreen } from './screens/PackagesScreen';
import { RenewalsScreen } from './screens/RenewalsScreen';

interface ViewProps {
  readonly width: number;
  readonly height: number;
}

interface ViewRegistration {
  readonly component: ComponentType<ViewProps>;
  /** Drawn under the view below, which gives up this many rows for it (the palette, the copy menu);
   *  without it the view fills the body in place of the views below. */
  readonly overlayRows?: number;
}

export const VIEWS: Readonly<Record<ViewId, ViewRegistration>> = {
  // Screens
  lines: { component: LinesScreen },
  detail: { component: LineDetailScreen },
  account: { component: AccountScreen },
  packages: { component: PackagesScreen },
  bouquets: { component: BouquetsScreen },
  journal: { component: JournalScreen },
  marks: { component: MarksScreen },
  renewals: { component: RenewalsScreen },
  find: { component: FindScreen },
  // Dialogs
  help: { component: HelpOverlay },
  palette: { component: CommandPalette, overlayRows: 2 },
  copy: { component: CopyMenu, overlayRows: 6 },
  message: { component: MessagePicker },
  form: { component: LineForm },
  picker: { component: BouquetPicker },
  action: { component: ActionDialog },
  bulk: { component: BulkDialog },
  resume: { component: ResumeDialog },
  profiles: { component: ProfilesOverlay },
  profileAdd: { component: ProfileAddForm },
  note: { component: NoteForm },
  columns: { component: ColumnsPicker },
  output: { component: OutputOverlay },
};

/**
 * What the body shows for a stack of view ids: the topmost view that fills the body, and the
 * overlays above it, drawn under it in stack order. Pure, for tests.
 */
export function bodyOf(ids: readonly ViewId[]): {
  readonly base: ViewId;
  readonly overlays: readonly ViewId[];
} {
  let at = ids.length - 1;
  while (at > 0 && VIEWS[ids[at]!].overlayRows !== undefined) at--;
  return { base: ids[at]!, overlays: ids.slice(at + 1) };
}
