import { historyStep, remember } from '../domain/history';
import { typedText } from '../domain/line-form';
import type { GetState, SetState, StoreDeps } from './deps';

/** Names the palette's arguments complete to that only the config knows, read when it opens. */
interface PaletteValues {
  readonly profiles: readonly string[];
}

/**
 * The `:` palette's text, history and the names it completes to. What a line means, its completion
 * and what it runs are the command registry's (commands/palette.ts): the store keeps only state.
 */
export interface PaletteSlice {
  readonly paletteInput: string;
  readonly paletteHistory: readonly string[];
  /** Position while walking the history with ↑/↓; null when typing. */
  readonly paletteHistoryIndex: number | null;
  readonly paletteValues: PaletteValues;
  openPalette: () => void;
  setPaletteInput: (text: string) => void;
  paletteHistoryStep: (delta: -1 | 1) => void;
  /** A line that parsed: kept in the history, and the palette closes before it runs. */
  paletteAccepted: (input: string) => void;
}

export function createPaletteSlice(set: SetState, get: GetState, deps: StoreDeps): PaletteSlice {
  return {
    paletteInput: '',
    paletteHistory: [],
    paletteHistoryIndex: null,
    paletteValues: { profiles: [] },

    openPalette() {
      const profiles = deps.profiles?.list().map((p) => p.name) ?? [];
      set({ paletteInput: '', paletteHistoryIndex: null, paletteValues: { profiles } });
      get().pushView({ id: 'palette' });
    },
    setPaletteInput(text) {
      set({ paletteInput: typedText(text), paletteHistoryIndex: null });
    },
    paletteHistoryStep(delta) {
      const step = historyStep(get().paletteHistory, get().paletteHistoryIndex, delta);
      if (step) set({ paletteHistoryIndex: step.index, paletteInput: step.text });
    },
    paletteAccepted(input) {
      const history = remember(get().paletteHistory, input, 50);
      set({ paletteInput: '', paletteHistory: history, paletteHistoryIndex: null });
      get().closeView('palette');
    },
  };
}
