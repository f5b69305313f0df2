import { Box, useApp as useInkApp, useInput } from 'ink';
import { useEffect } from 'react';
import type { UiEffects } from '../commands/effects';
import { handleInput } from '../keys/input';
import { selectLocalRows } from '../store/notes-slice';
import { FlashLine, selectFlashRows } from './layout/FlashLine';
import { Footer } from './layout/Footer';
import { bodyRows as bodyRowsFor, frameRows as frameRowsFor, linesPageSize } from './layout/frame';
import { Header } from './layout/Header';
import { ActionDialog } from './overlays/ActionDialog';
import { BouquetPicker } from './overlays/BouquetPicker';
import { BulkDialog } from './overlays/BulkDialog';
import { CommandPalette } from './overlays/CommandPalette';
import { CopyMenu } from './overlays/CopyMenu';
import { HelpOverlay } from './overlays/HelpOverlay';
import { LineForm } from './overlays/LineForm';
import { MessagePicker } from './overlays/MessagePicker';
import { NoteForm } from './overlays/NoteForm';
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
import { useApp, useAppStore } from './store-context';
import { useTerminalSize } from './use-terminal-size';

export function App({ effects }: { readonly effects: UiEffects }) {
  const store = useAppStore();
  const { exit } = useInkApp();
  const { columns, rows } = useTerminalSize();
  const frameRows = frameRowsFor(rows);
  // A flash longer than the width takes a second row (a path it names is shown whole) from the body.
  const flashRows = useApp(selectFlashRows(columns));
  const bodyRows = bodyRowsFor(rows) - (flashRows - 1);
  const screen = useApp((s) => s.screens.at(-1)!.id);
  const modal = useApp((s) => s.modal?.kind ?? null);
  const quitRequested = useApp((s) => s.quitRequested);

  // The page size follows the terminal's height, so a page always fits, with the lines found by
  // their note under it.
  const localRows = useApp(selectLocalRows);
  useEffect(() => {
    store.getState().setPageSize(linesPageSize(rows) - localRows);
  }, [rows, localRows, store]);

  useEffect(() => {
    if (quitRequested) exit();
  }, [quitRequested, exit]);

  // The one input handler of the app.
  useInput((input, key) => handleInput(store, input, key, effects));

  const width = columns;
  let body: React.ReactNode;
  // Full-body overlays replace the screen; small ones sit under it.
  if (modal === 'help') body = <HelpOverlay width={width} height={bodyRows} />;
  else if (modal === 'form') body = <LineForm width={width} />;
  else if (modal === 'picker') body = <BouquetPicker width={width} height={bodyRows} />;
  else if (modal === 'message') body = <MessagePicker width={width} height={bodyRows} />;
  else if (modal === 'action') body = <ActionDialog width={width} height={bodyRows} />;
  else if (modal === 'bulk') body = <BulkDialog width={width} height={bodyRows} />;
  else if (modal === 'resume') body = <ResumeDialog width={width} height={bodyRows} />;
  else if (modal === 'profiles') body = <ProfilesOverlay width={width} />;
  else if (modal === 'profileAdd') body = <ProfileAddForm width={width} />;
  else if (modal === 'note') body = <NoteForm width={width} />;
  else {
    const h = bodyRows - (modal === 'palette' ? 2 : modal === 'copy' ? 6 : 0);
    if (screen === 'lines') body = <LinesScreen width={width} height={h} />;
    else if (screen === 'detail') body = <LineDetailScreen width={width} height={h} />;
    else if (screen === 'account') body = <AccountScreen width={width} height={h} />;
    else if (screen === 'packages') body = <PackagesScreen width={width} height={h} />;
    else if (screen === 'journal') body = <JournalScreen width={width} height={h} />;
    else if (screen === 'marks') body = <MarksScreen width={width} height={h} />;
    else if (screen === 'renewals') body = <RenewalsScreen width={width} height={h} />;
    else if (screen === 'find') body = <FindScreen width={width} height={h} />;
    else body = <BouquetsScreen width={width} height={h} />;
  }

  return (
    <Box flexDirection="column" width={width} height={frameRows}>
      <Header width={width} />
      {/* Vertical clip only: rows are already cut to the width, and a horizontal clip would make
          Ink slice every line of every frame again (measured: a fifth of a cursor move). */}
      <Box flexDirection="column" height={bodyRows} overflowY="hidden">
        {body}
        {modal === 'palette' && <CommandPalette width={width} />}
        {modal === 'copy' && <CopyMenu width={width} />}
      </Box>
      <FlashLine width={width} />
      <Footer width={width} />
    </Box>
  );
}
