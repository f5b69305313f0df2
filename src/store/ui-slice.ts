import type { GetState, SetState, StoreDeps } from './deps';
import type { Flash, Line, LineListItem, Modal, Screen, ScreenId, Tone } from './types';

export interface UiSlice {
  /** Screen stack; the first is always the lines browser. */
  readonly screens: readonly Screen[];
  readonly modal: Modal;
  readonly flash: Flash | null;
  readonly showPassword: boolean;
  readonly quitRequested: boolean;
  /** The caret of the text being edited, with the target and text it belongs to (text-target.ts). */
  readonly caret: Caret | null;
  /** Top-level screens (1–4): the lines browser at the bottom, the chosen one above it. */
  navigate: (id: Exclude<ScreenId, 'detail'>) => void;
  openDetail: (line: LineListItem | Line) => void;
  /** Esc/q: closes the modal, or goes back; `quitAtRoot` quits from the first screen. */
  back: (quitAtRoot: boolean) => void;
  openModal: (modal: Exclude<Modal, null>) => void;
  closeModal: () => void;
  notify: (text: string, tone?: Tone) => void;
  togglePassword: () => void;
  quit: () => void;
  setCaret: (caret: Caret) => void;
}

export interface Caret {
  readonly key: string;
  readonly value: string;
  readonly at: number;
}

const FLASH_MS = 8_000;

export function createUiSlice(set: SetState, get: GetState, _deps: StoreDeps): UiSlice {
  let flashId = 0;
  let flashTimer: ReturnType<typeof setTimeout> | undefined;
  return {
    screens: [{ id: 'lines' }],
    modal: null,
    flash: null,
    showPassword: false,
    quitRequested: false,
    caret: null,

    setCaret(caret) {
      set({ caret });
    },

    navigate(id) {
      set({ screens: id === 'lines' ? [{ id: 'lines' }] : [{ id: 'lines' }, { id }], modal: null });
    },
    openDetail(line) {
      set({ screens: [...get().screens, { id: 'detail', line }], showPassword: false });
    },
    back(quitAtRoot) {
      const { modal, screens } = get();
      if (modal) return set({ modal: null });
      if (screens.length > 1) return set({ screens: screens.slice(0, -1), showPassword: false });
      if (quitAtRoot) set({ quitRequested: true });
    },
    openModal(modal) {
      set({ modal });
    },
    closeModal() {
      set({ modal: null });
    },
    notify(text, tone = 'info') {
      const id = ++flashId;
      set({ flash: { text, tone, id } });
      clearTimeout(flashTimer);
      flashTimer = setTimeout(() => {
        if (get().flash?.id === id) set({ flash: null });
      }, FLASH_MS);
      flashTimer.unref?.();
    },
    togglePassword() {
      set({ showPassword: !get().showPassword });
    },
    quit() {
      set({ quitRequested: true });
    },
  };
}
