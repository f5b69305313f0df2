import type { CommandId } from '../keys/keymap';
import type { AppState } from '../store/app-store';
import { selectCurrentLine } from '../store/lines-slice';
import { loaded } from '../store/types';

export interface UiEffects {
  /** Writes to the system clipboard through OSC 52. */
  readonly copy: (text: string) => void;
}

type Handler = (s: AppState, fx: UiEffects) => void;

/** The line of the detail screen, fresher from the current page when it is there. */
export const selectDetailLine = (s: AppState) => {
  const top = s.screens.at(-1);
  if (top?.id !== 'detail') return undefined;
  return s.page?.lines.find((l) => l.id === top.line.id) ?? top.line;
};

const copyFrom =
  (pick: (s: AppState) => { text: string; what: string } | null): Handler =>
  (s, fx) => {
    const item = pick(s);
    s.closeModal();
    if (!item) return s.notify('Nothing to copy', 'error');
    fx.copy(item.text);
    s.notify(`Copied ${item.what} to the clipboard (OSC 52)`, 'success');
  };

const fromLine = (what: string, text: (l: { username: string; password: string }) => string) =>
  copyFrom((s) => {
    const l = selectDetailLine(s);
    return l ? { text: text(l), what } : null;
  });

/** What each command does. A test checks every command of the keymap has one. */
export const HANDLERS: Record<CommandId, Handler> = {
  'app.help': (s) => s.openModal({ kind: 'help' }),
  'app.palette': (s) => s.openPalette(),
  'app.back': (s) => s.back(false),
  'app.backOrQuit': (s) => s.back(true),
  'app.quit': (s) => s.quit(),
  'app.refresh': (s) => void s.refreshScreen(),
  'nav.account': (s) => {
    s.navigate('account');
    void s.loadCounts();
  },
  'nav.lines': (s) => s.navigate('lines'),
  'nav.packages': (s) => s.navigate('packages'),
  'nav.bouquets': (s) => s.navigate('bouquets'),

  'lines.down': (s) => s.moveCursor(1),
  'lines.up': (s) => s.moveCursor(-1),
  'lines.pageNext': (s) => s.pageNext(),
  'lines.pagePrev': (s) => s.pagePrev(),
  'lines.first': (s) => s.firstLine(),
  'lines.last': (s) => s.lastLine(),
  'lines.open': (s) => {
    const line = selectCurrentLine(s);
    if (line) s.openDetail(line);
  },
  'lines.search': (s) => s.openSearch(),
  'lines.filterStatus': (s) => s.cycleStatus(),
  'lines.filterType': (s) => s.cycleType(),
  'lines.sortColumn': (s) => s.cycleSort(),
  'lines.sortOrder': (s) => s.flipOrder(),
  'lines.mark': (s) => s.toggleMark(),
  'lines.markPage': (s) => s.togglePage(),
  'lines.markAll': (s) => void s.markAllMatching(),

  'detail.password': (s) => s.togglePassword(),
  'detail.copy': (s) => {
    if (selectDetailLine(s)) s.openModal({ kind: 'copy' });
  },
  'copy.credentials': fromLine('username and password', (l) => `${l.username}\n${l.password}`),
  'copy.username': fromLine('the username', (l) => l.username),
  'copy.password': fromLine('the password', (l) => l.password),
  'copy.portal': copyFrom((s) => {
    const url = loaded(s.account)?.server_information.mag_portal_url;
    return url ? { text: url, what: 'the MAG portal URL' } : null;
  }),
  'copy.close': (s) => s.closeModal(),

  'search.apply': (s) => s.applySearch(),
  'search.clear': (s) => s.clearSearch(),

  'palette.run': (s) => s.runPalette(),
  'palette.complete': (s) => s.completePaletteInput(),
  'palette.historyPrev': (s) => s.paletteHistoryStep(-1),
  'palette.historyNext': (s) => s.paletteHistoryStep(1),
  'palette.close': (s) => s.closeModal(),

  'help.close': (s) => s.closeModal(),
};

/** Why a command cannot run now (shown in the flash line), or null when it can. */
export const DISABLED: Partial<Record<CommandId, (s: AppState) => string | null>> = {
  'lines.open': (s) => (selectCurrentLine(s) ? null : 'No line under the cursor'),
  'lines.mark': (s) => (selectCurrentLine(s) ? null : 'No line under the cursor'),
  'lines.pageNext': (s) => (s.page && s.page.nextOffset === null ? 'This is the last page' : null),
  'lines.pagePrev': (s) => (s.page && s.page.previousOffset === null ? 'This is the first page' : null),
  'lines.markAll': (s) => (s.markingAll ? 'Already marking every matching line' : null),
};
