/**
 * Several keys in one read (typed ahead, or over SSH) reach Ink as one string: Ink splits off escape
 * sequences, Backspace and Ctrl-C, but leaves Enter, Tab and the other control characters inside the
 * text. This splits such a string into text and keys, in order. Nothing after an ESC is guessed at.
 */
type BurstPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'key'; readonly name: string };

/** Control characters that can arrive inside a chunk, as key names. */
const CONTROL_KEYS: Readonly<Record<string, string>> = {
  '\r': 'enter',
  '\n': 'enter',
  '\t': 'tab',
  '\u007f': 'backspace',
  '\u0008': 'backspace',
};

/** A control character as a key name (`enter`, `tab`, `ctrl+u`…), or null for a printable one. */
function controlKeyName(ch: string): string | null {
  const code = ch.codePointAt(0)!;
  if (CONTROL_KEYS[ch]) return CONTROL_KEYS[ch];
  if (code >= 1 && code <= 26) return `ctrl+${String.fromCharCode(code + 96)}`;
  return null;
}

export function splitBurst(input: string): BurstPart[] {
  const out: BurstPart[] = [];
  let text = '';
  for (const ch of input) {
    if (ch === '\u001b') break;
    const name = controlKeyName(ch);
    if (name === null) {
      text += ch;
      continue;
    }
    if (text) out.push({ kind: 'text', text });
    text = '';
    out.push({ kind: 'key', name });
  }
  if (text) out.push({ kind: 'text', text });
  return out;
}
