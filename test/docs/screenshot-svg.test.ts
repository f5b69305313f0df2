/** The screenshots' SVG is the terminal's cells: their text where they are, their colours, escaped. */
import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { svgOf } from '../../scripts/screenshot-svg';

const written = (term: InstanceType<typeof xterm.Terminal>, data: string) =>
  new Promise<void>((resolve) => term.write(data, resolve));

describe('screenshot SVG', () => {
  it('draws each run of cells with its colour, background and weight, at its column and row', async () => {
    const term = new xterm.Terminal({ cols: 20, rows: 3, allowProposedApi: true });
    await written(
      term,
      'ab \u001b[31mred\u001b[0m \u001b[1;38;2;1;2;3mrgb\u001b[0m\r\n\u001b[7m<x&y>\u001b[0m',
    );
    const svg = svgOf(term, 'a <title>');
    expect(svg).toContain('<title>a &lt;title&gt;</title>');
    // "red" at column 3 of row 0, in the palette's red; "rgb" bold in its own RGB
    expect(svg).toMatch(/<text x="37\.2" y="\d+" fill="#d75f5f"[^>]*>red<\/text>/);
    expect(svg).toMatch(/fill="#010203"[^>]*font-weight="bold">rgb<\/text>/);
    // inverse: the default colours swapped, the text escaped
    expect(svg).toMatch(/<rect x="12\.0" y="\d+" width="42\.0" height="17" fill="#d0d0d0"\/>/);
    expect(svg).toMatch(/fill="#1c1c1c"[^>]*>&lt;x&amp;y&gt;<\/text>/);
    expect((svg.match(/<text /g) ?? []).length).toBe(1 + 4);
  });
});
