/**
 * A paste is text, never keys. With bracketed paste on, the terminal wraps a paste in ESC[200~ …
 * ESC[201~; everything between is taken out of the byte stream before Ink turns bytes into keys and
 * delivered as one piece of text, so nothing inside it (a newline, an Esc, a `q`) can confirm,
 * cancel or navigate. The filter sits on stdin's `read()`, before Ink. Ink 8's `usePaste` is not
 * used: its parser waits for the end marker without a time limit or a size bound, so a paste whose
 * end is lost swallows every later key; here an unfinished paste ends after 300 ms and keeps 64 K.
 */
export const PASTE_START = '\u001b[200~';
export const PASTE_END = '\u001b[201~';
export const BRACKETED_PASTE_ON = '\u001b[?2004h';
export const BRACKETED_PASTE_OFF = '\u001b[?2004l';
/** What a paste keeps: more is dropped (the end marker is still looked for). */
export const PASTE_MAX_CHARS = 65_536;

export type Segment =
  | { readonly kind: 'keys'; readonly text: string }
  | { readonly kind: 'paste'; readonly text: string };

/** Longest suffix of `text` that is a proper prefix of `marker` (a marker split across chunks). */
function partialTail(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--)
    if (marker.startsWith(text.slice(text.length - n))) return n;
  return 0;
}

/** Turns a stream of chunks into keys and pastes, whatever the chunk boundaries. Pure. */
export class PasteSplitter {
  #inPaste = false;
  #paste = '';
  #tail = '';

  get inPaste(): boolean {
    return this.#inPaste;
  }

  /** Whether a marker's beginning is held back, waiting for the next chunk. */
  get holding(): boolean {
    return this.#tail !== '';
  }

  push(chunk: string): Segment[] {
    let text = this.#tail + chunk;
    this.#tail = '';
    const out: Segment[] = [];
    while (text) {
      if (this.#inPaste) {
        const end = text.indexOf(PASTE_END);
        if (end < 0) {
          const hold = partialTail(text, PASTE_END);
          this.#add(text.slice(0, text.length - hold));
          this.#tail = text.slice(text.length - hold);
          return out;
        }
        this.#add(text.slice(0, end));
        out.push({ kind: 'paste', text: this.#paste });
        this.#inPaste = false;
        this.#paste = '';
        text = text.slice(end + PASTE_END.length);
      } else {
        const start = text.indexOf(PASTE_START);
        if (start < 0) {
          // The start of a marker ("ESC", "ESC[", "ESC[20"…) waits for the next chunk; the filter lets
          // it go as keys if none comes within ESC_SETTLE_MS. A lone ESC waits too: a paste whose
          // marker is cut right after its ESC (an SSH packet boundary) would otherwise arrive as keys,
          // Enter included. Ink itself holds a lone ESC as long and glues what follows to it, so
          // holding it here changes no key's meaning, only delays the Esc key by ≤ 20 ms.
          const keep = partialTail(text, PASTE_START);
          if (text.length > keep) out.push({ kind: 'keys', text: text.slice(0, text.length - keep) });
          this.#tail = text.slice(text.length - keep);
          return out;
        }
        if (start > 0) out.push({ kind: 'keys', text: text.slice(0, start) });
        this.#inPaste = true;
        text = text.slice(start + PASTE_START.length);
      }
    }
    return out;
  }

  /** No more data is coming for now: a held marker start is keys after all; an open paste ends. */
  flush(): Segment[] {
    const out: Segment[] = [];
    if (this.#inPaste) {
      this.#add(this.#tail);
      out.push({ kind: 'paste', text: this.#paste });
    } else if (this.#tail) out.push({ kind: 'keys', text: this.#tail });
    this.#inPaste = false;
    this.#paste = '';
    this.#tail = '';
    return out;
  }

  #add(text: string) {
    if (this.#paste.length < PASTE_MAX_CHARS)
      this.#paste += text.slice(0, PASTE_MAX_CHARS - this.#paste.length);
  }
}

/** The part of stdin Ink reads: `read()` and the 'readable' event it listens to. */
export interface ReadableInput {
  read: (size?: number) => string | Buffer | null;
  emit(event: 'readable'): boolean;
}

/** How long an unfinished paste waits for the rest before it ends as it is. */
const PASTE_SETTLE_MS = 300;
/** How long a held marker start ("ESC", "ESC[2") waits before it is keys after all. */
const ESC_SETTLE_MS = 20;

/**
 * Filters stdin's `read()`: keys pass through to Ink in order, each paste goes to `onPaste` at its
 * place between them. Returns a function that removes the filter.
 */
export function installPasteFilter(stdin: ReadableInput, onPaste: (text: string) => void): () => void {
  const original = stdin.read;
  const splitter = new PasteSplitter();
  const queue: Segment[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settleLater = () => {
    clearTimeout(timer);
    if (!splitter.inPaste && !splitter.holding) return;
    timer = setTimeout(
      () => {
        queue.push(...splitter.flush());
        // Ink reads on 'readable': what was held is read like any chunk.
        stdin.emit('readable');
      },
      splitter.inPaste ? PASTE_SETTLE_MS : ESC_SETTLE_MS,
    );
    timer.unref?.();
  };
  const filtered = (size?: number): string | null => {
    for (;;) {
      const next = queue.shift();
      if (next?.kind === 'paste') {
        onPaste(next.text);
        continue;
      }
      if (next) return next.text;
      const chunk = original.call(stdin, size);
      if (chunk === null) {
        settleLater();
        return null;
      }
      queue.push(...splitter.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8')));
      // A chunk that was all paste (or a held marker) gives Ink an empty string: it reads on.
      if (!queue.length) return '';
    }
  };
  stdin.read = filtered;
  return () => {
    clearTimeout(timer);
    stdin.read = original;
  };
}

/**
 * What a one-line field takes from a paste: the first line, control characters dropped (ESC, Tab,
 * DEL, C1), at most `room` characters. `cut` says whether anything was left out.
 */
export function pastedLine(text: string, room: number): { readonly line: string; readonly cut: boolean } {
  const first = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  const clean = [...first.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')];
  const line = clean.slice(0, Math.max(0, room)).join('');
  return { line, cut: clean.length > room || text.length > first.length };
}

/** A paste for a field with lines (a note's text): line breaks kept as \n, other controls dropped. */
export function pastedLines(text: string, room: number): { readonly line: string; readonly cut: boolean } {
  const clean = [
    ...text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, ''),
  ];
  return { line: clean.slice(0, Math.max(0, room)).join(''), cut: clean.length > room };
}

/** Where pastes go: one listener at a time (the welcome screen, then the app). */
export interface PasteHub {
  readonly emit: (text: string) => void;
  /** Makes `fn` the listener; the returned function removes it (if it is still the one). */
  readonly on: (fn: (text: string) => void) => () => void;
}

export function createPasteHub(): PasteHub {
  let listener: ((text: string) => void) | null = null;
  return {
    emit: (text) => listener?.(text),
    on(fn) {
      listener = fn;
      return () => {
        if (listener === fn) listener = null;
      };
    },
  };
}
