/**
 * Raw terminal sequences, written by the app itself. Ink 8's `alternateScreen` option enters and
 * leaves with each render: the welcome screen, the app and each profile switch are separate renders,
 * and the shell's screen would flash between them. One alternate screen spans the whole run.
 */
/** The alternate screen, cursor at its top left: the screen is cleared but the cursor stays put. */
export const ENTER_ALT_SCREEN = '\u001b[?1049h\u001b[H';
export const LEAVE_ALT_SCREEN = '\u001b[?1049l';
export const SHOW_CURSOR = '\u001b[?25h';

/**
 * OSC 52 "set clipboard": works over SSH. Inside tmux it is wrapped in a DCS passthrough (escapes
 * doubled) so tmux hands it to the outer terminal.
 */
export function osc52(text: string, env: NodeJS.ProcessEnv = process.env): string {
  const seq = `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
  if (env.TMUX) return `\u001bPtmux;${seq.replaceAll('\u001b', '\u001b\u001b')}\u001b\\`;
  return seq;
}
