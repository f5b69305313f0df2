// A headless xterm's screen as an SVG: one <text> per run of cells that look alike, a <rect> per run
// of a background colour. The colours are the terminal's (the 256-colour palette, or the RGB a cell
// holds); the font is the reader's monospace.
import type xterm from '@xterm/headless';

type Terminal = InstanceType<typeof xterm.Terminal>;
type Cell = NonNullable<
  ReturnType<NonNullable<ReturnType<Terminal['buffer']['active']['getLine']>>['getCell']>
>;

const FG = '#d0d0d0';
const BG = '#1c1c1c';
const BASE16 = [
  '#1c1c1c',
  '#d75f5f',
  '#87af5f',
  '#d7af5f',
  '#5f87d7',
  '#af87d7',
  '#5fafaf',
  '#d0d0d0',
  '#808080',
  '#ff8787',
  '#afd787',
  '#ffd787',
  '#87afff',
  '#d7afff',
  '#87d7d7',
  '#ffffff',
];
const hex = (n: number) => n.toString(16).padStart(2, '0');
function palette(i: number): string {
  if (i < 16) return BASE16[i]!;
  if (i < 232) {
    const steps = [0, 95, 135, 175, 215, 255];
    const v = i - 16;
    return `#${hex(steps[Math.floor(v / 36)]!)}${hex(steps[Math.floor(v / 6) % 6]!)}${hex(steps[v % 6]!)}`;
  }
  const g = 8 + (i - 232) * 10;
  return `#${hex(g)}${hex(g)}${hex(g)}`;
}
const rgb = (n: number) => `#${n.toString(16).padStart(6, '0')}`;

interface Look {
  readonly fg: string;
  readonly bg: string | null;
  readonly bold: boolean;
  readonly dim: boolean;
  readonly italic: boolean;
  readonly underline: boolean;
}
function lookOf(c: Cell): Look {
  let fg = c.isFgDefault() ? FG : c.isFgRGB() ? rgb(c.getFgColor()) : palette(c.getFgColor());
  let bg: string | null = c.isBgDefault()
    ? null
    : c.isBgRGB()
      ? rgb(c.getBgColor())
      : palette(c.getBgColor());
  if (c.isInverse()) [fg, bg] = [bg ?? BG, fg];
  // Bold text in the first eight colours is shown bright, as most terminals do.
  if (c.isBold() && c.isFgPalette() && c.getFgColor() < 8 && !c.isInverse()) fg = palette(c.getFgColor() + 8);
  return {
    fg,
    bg,
    bold: !!c.isBold(),
    dim: !!c.isDim(),
    italic: !!c.isItalic(),
    underline: !!c.isUnderline(),
  };
}
const same = (a: Look, b: Look) =>
  a.fg === b.fg &&
  a.bg === b.bg &&
  a.bold === b.bold &&
  a.dim === b.dim &&
  a.italic === b.italic &&
  a.underline === b.underline;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const CW = 8.4;
const LH = 17;
const FONT = 14;
const PAD = 12;
const BAR = 28;

export function svgOf(term: Terminal, title: string): string {
  const b = term.buffer.active;
  const width = Math.ceil(term.cols * CW + PAD * 2);
  const height = Math.ceil(term.rows * LH + PAD * 2 + BAR);
  const rects: string[] = [];
  const texts: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = b.getLine(b.viewportY + y);
    if (!line) continue;
    const top = BAR + PAD + y * LH;
    let x = 0;
    while (x < term.cols) {
      const first = line.getCell(x);
      if (!first) break;
      const look = lookOf(first);
      let text = '';
      let end = x;
      while (end < term.cols) {
        const c = line.getCell(end);
        if (!c || !same(lookOf(c), look)) break;
        const w = c.getWidth();
        if (w > 0) text += c.getChars() || ' ';
        end += Math.max(w, 1);
      }
      const left = PAD + x * CW;
      if (look.bg)
        rects.push(
          `<rect x="${left.toFixed(1)}" y="${top}" width="${((end - x) * CW).toFixed(1)}" height="${LH}" fill="${look.bg}"/>`,
        );
      if (text.trim() !== '') {
        const attrs = [
          `x="${left.toFixed(1)}"`,
          `y="${top + LH - 4}"`,
          `fill="${look.fg}"`,
          `textLength="${((end - x) * CW).toFixed(1)}"`,
          'lengthAdjust="spacingAndGlyphs"',
          look.bold ? 'font-weight="bold"' : '',
          look.dim ? 'opacity="0.6"' : '',
          look.italic ? 'font-style="italic"' : '',
          look.underline ? 'text-decoration="underline"' : '',
        ].filter(Boolean);
        texts.push(`<text ${attrs.join(' ')}>${esc(text.replace(/\s+$/, (t) => t))}</text>`);
      }
      x = end;
    }
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)}">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${width}" height="${height}" rx="8" fill="${BG}"/>`,
    `<rect width="${width}" height="${BAR}" rx="8" fill="#303030"/>`,
    `<rect y="${BAR - 8}" width="${width}" height="8" fill="#303030"/>`,
    `<circle cx="18" cy="14" r="6" fill="#ff5f57"/><circle cx="38" cy="14" r="6" fill="#febc2e"/><circle cx="58" cy="14" r="6" fill="#28c840"/>`,
    `<text x="${width / 2}" y="19" fill="#a8a8a8" font-family="sans-serif" font-size="12" text-anchor="middle">${esc(title)}</text>`,
    `<g font-family="'DejaVu Sans Mono','Menlo','Consolas',monospace" font-size="${FONT}" xml:space="preserve">`,
    ...rects,
    ...texts,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}
