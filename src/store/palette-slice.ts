import { typedText } from '../domain/line-form';
import type { GetState, SetState, StoreDeps } from './deps';
import { completePalette, NO_VALUES, type PaletteValues, parsePalette } from './palette';
import type { LinesQuery } from './types';

export interface PaletteSlice {
  readonly paletteInput: string;
  readonly paletteHistory: readonly string[];
  /** Position while walking the history with ↑/↓; null when typing. */
  readonly paletteHistoryIndex: number | null;
  /** Names arguments complete to (the profiles), read when the palette opens. */
  readonly paletteValues: PaletteValues;
  openPalette: () => void;
  setPaletteInput: (text: string) => void;
  completePaletteInput: () => void;
  paletteHistoryStep: (delta: -1 | 1) => void;
  runPalette: () => void;
}

export function createPaletteSlice(set: SetState, get: GetState, deps: StoreDeps): PaletteSlice {
  return {
    paletteInput: '',
    paletteHistory: [],
    paletteHistoryIndex: null,
    paletteValues: NO_VALUES,

    openPalette() {
      const profiles = deps.profiles?.list().map((p) => p.name) ?? [];
      set({ paletteInput: '', paletteHistoryIndex: null, paletteValues: { profiles } });
      get().pushView({ id: 'palette' });
    },
    setPaletteInput(text) {
      set({ paletteInput: typedText(text), paletteHistoryIndex: null });
    },
    completePaletteInput() {
      set({ paletteInput: completePalette(get().paletteInput, get().paletteValues) });
    },
    paletteHistoryStep(delta) {
      const { paletteHistory: h, paletteHistoryIndex: i } = get();
      if (!h.length) return;
      const at = i === null ? (delta < 0 ? h.length - 1 : null) : i + delta;
      if (at === null || at >= h.length) return set({ paletteHistoryIndex: null, paletteInput: '' });
      const clamped = Math.max(0, at);
      set({ paletteHistoryIndex: clamped, paletteInput: h[clamped]! });
    },
    runPalette() {
      const input = get().paletteInput;
      const parsed = parsePalette(input);
      if (!parsed.ok) return get().notify(parsed.error, 'error');
      const history = [...get().paletteHistory.filter((h) => h !== input.trim()), input.trim()].slice(-50);
      set({ paletteInput: '', paletteHistory: history, paletteHistoryIndex: null });
      get().closeView('palette');
      const s = get();
      const [a, b] = parsed.args;
      switch (parsed.name) {
        case 'lines':
        case 'account':
        case 'packages':
        case 'bouquets':
          return s.navigate(parsed.name);
        case 'journal':
          // As its key does (nav.journal): read the journal, start at the top.
          s.navigate('journal');
          s.loadJournal();
          return s.scrollBy('journal', Number.NEGATIVE_INFINITY, 1);
        case 'filter':
          s.navigate('lines');
          return s.setQuery({ status: a as LinesQuery['status'] });
        case 'type':
          s.navigate('lines');
          return s.setQuery({ type: a as LinesQuery['type'] });
        case 'sort':
          s.navigate('lines');
          return s.setQuery({
            ...(a ? { orderBy: a as LinesQuery['orderBy'] } : {}),
            ...(b ? { orderType: b as LinesQuery['orderType'] } : {}),
          });
        case 'search':
          s.navigate('lines');
          set({ searchDraft: a ?? '' });
          return s.setQuery({ search: (a ?? '').trim() });
        case 'renewals': {
          // The parser took only whole days from 1 to 365.
          const days = [a, b].map((v) => (v === undefined ? undefined : Number(v)));
          s.navigate('renewals');
          if (days[0] !== undefined || days[1] !== undefined)
            return s.setRenewalsWindow({
              ...(days[0] ? { withinDays: days[0] } : {}),
              ...(days[1] ? { expiredDays: days[1] } : {}),
            });
          return void s.loadRenewals();
        }
        case 'lowbalance':
          return s.setLowBalanceText(a ?? '');
        case 'profile':
          return s.profileCommand(parsed.args.join(' '));
        case 'find':
          return void s.findAcross(a ?? '');
        case 'notes':
          s.navigate('lines');
          return s.toggleNoteColumn();
        case 'unmark':
          s.clearMarks();
          return s.notify('Every mark cleared', 'info');
        case 'refresh':
          return void s.refreshScreen();
        case 'help':
          return s.pushView({ id: 'help' });
        case 'quit':
          return s.quit();
      }
    },
  };
}
