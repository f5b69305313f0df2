/** The runway and the drift on screen (header, account screen), against the sandbox over HTTP. */
import { describe, expect, it } from 'vitest';
import { memoryBalances } from '../../src/services/balance-watch';
import { memoryJournal } from '../../src/services/changes/journal';
import { renderApp } from '../helpers/app';

describe('runway and drift on screen', () => {
  it('the header says the days of renewals covered; the account screen the lines that lapse first', async () => {
    const app = await renderApp({ lines: 40, credits: 3 }, { runwayAtStart: true });
    await app.waitFrame((f) => /covers (\d+ days?|less than a day) of renewals/.test(f.split('\n')[0]!));
    await app.press('nav.account');
    await app.waitFrame((f) => f.includes('Runway') && f.includes('First to lapse') && f.includes('lapses'));
    expect(app.frame()).toMatch(
      /Runway\s+covers (\d+ days?|less than a day) of renewals: \d+ lines expiring within 30 days need/,
    );
  });

  it('a balance moved by another client is said in the header and on the account screen, with the amount', async () => {
    const app = await renderApp({ lines: 30 }, { balances: memoryBalances(), journal: memoryJournal() });
    await app.waitFrame((f) => f.includes('1,000 credits'));
    const [line] = (await app.client.listLines({ limit: 5, type: 'premium', status: 'active' })).lines;
    const before = (await app.client.me()).credits;
    await app.client.extendLine({ id: line!.id, duration: 1 });
    const spent = before - (await app.client.me()).credits;
    await app.press('app.refresh');
    await app.waitFrame((f) => f.split('\n')[0]!.includes(`balance moved −${spent} credit`));
    await app.press('nav.account');
    await app.waitFrame((f) =>
      /Drift\s+the balance moved by −\d+ credits? that no change from this machine explains/.test(f),
    );
  });
});
