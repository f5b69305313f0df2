import { Box } from 'ink';
import { render } from 'ink-testing-library';
import stripAnsi from 'strip-ansi';
import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../../src/store/app-store';
import { Header } from '../../src/ui/layout/Header';
import { layoutHeader } from '../../src/ui/layout/header-items';
import { StoreProvider } from '../../src/ui/store-context';
import { sandbox } from '../helpers/sandbox';

const joined = (l: ReturnType<typeof layoutHeader>) => `${l.head}${l.money}${l.rest}${l.badges}`;
const parts = {
  email: 'reseller.support@example-panel.com',
  money: '3,048.50 credits',
  lines: '2,623 lines',
  marked: '2,623 marked',
  badges: '[READ-ONLY] [panel-main] ',
};

describe('the header at narrow widths (issue 23)', () => {
  it('drops whole items in the stated order, never cuts a number', () => {
    for (const width of [120, 100, 80, 60, 50]) {
      const text = joined(layoutHeader(width, parts));
      expect(text.length, `${width}: ${text}`).toBeLessThanOrEqual(width);
      expect(text).toContain('3,048.50 credits');
      expect(text).toContain('[panel-main]');
      // every number on the line is one of the item's numbers, whole
      for (const n of text.match(/\d[\d,.]*\d|\d/g) ?? []) expect(['3,048.50', '2,623']).toContain(n);
    }
    expect(joined(layoutHeader(120, parts))).toContain(' linedesk  reseller.support@example-panel.com  ');
    // 100: the product name goes first; the numbers stay whole
    const at100 = joined(layoutHeader(100, parts));
    expect(at100).not.toContain('linedesk');
    expect(at100).toContain('reseller.support@');
    expect(at100).toContain('2,623 lines');
    expect(at100).toContain('2,623 marked');
    // 80: the lines count (the list says it too) goes before the account: which account the marks
    // and the balance are is kept, shortened
    const at80 = joined(layoutHeader(80, parts));
    expect(at80).not.toContain('lines');
    expect(at80).toMatch(/ reseller\.support@\S*… {2}3,048\.50 credits/);
    expect(at80).toContain('2,623 marked');
    // narrower: the account goes before the marked count
    const at60 = joined(layoutHeader(60, parts));
    expect(at60).not.toContain('reseller');
    expect(at60).toContain('2,623 marked');
  });

  it('a stale balance says since when while it fits, and stays stale, whole, with the badges, when it does not', () => {
    const stale = {
      ...parts,
      money: '1,234,567.50 credits (stale, as of 16:20) (low)',
      moneyShort: '1,234,567.50 credits (stale) (low)',
    };
    expect(joined(layoutHeader(100, stale))).toContain('(stale, as of 16:20)');
    // 60 columns: the narrowest the app draws (present/min-size.ts).
    for (const width of [80, 60]) {
      const text = joined(layoutHeader(width, stale));
      expect(text.length, `${width}: ${text}`).toBeLessThanOrEqual(width);
      expect(text).toContain('1,234,567.50 credits (stale');
      expect(text).toContain('[READ-ONLY] [panel-main]');
    }
  });

  it('drawn at 80 columns with marks and read-only: the account stays (shortened), every number whole', async () => {
    const env = await sandbox();
    const store = createAppStore({
      client: env.client,
      target: { id: 'sandbox:test', kind: 'sandbox', label: 'panel-main', baseUrl: env.sb.baseUrl },
      pageSize: 10,
    });
    store.setState({
      readOnly: true,
      account: {
        status: 'ready',
        data: { email: 'reseller.support@example-panel.com', credits: 3048.5, lines_count: 2623 } as never,
      },
      marked: new Map(Array.from({ length: 2623 }, (_, i) => [`id${i}`, {}])) as never,
    });
    const ui = render(
      <StoreProvider store={store}>
        <Box width={80}>
          <Header width={80} />
        </Box>
      </StoreProvider>,
    );
    await vi.waitFor(() => expect(stripAnsi(ui.lastFrame() ?? '')).toContain('credits'));
    const line = stripAnsi(ui.lastFrame() ?? '');
    expect(line).toContain('3,048.50 credits');
    expect(line).toContain('2,623 marked');
    expect(line).toContain('[READ-ONLY] [panel-main]');
    expect(line).toMatch(/^ reseller\.support@\S*… {2}3,048\.50 credits/);
    for (const n of line.match(/\d[\d,.]*\d|\d/g) ?? []) expect(['3,048.50', '2,623']).toContain(n);
    ui.unmount();
  });
});
