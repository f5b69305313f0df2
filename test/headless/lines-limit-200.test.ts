// `linedesk lines --ndjson --limit 200` on a list of more than 200 lines. The gated
// read-ahead shuts the third page's guess when the second page's answer comes (it counts 100 new
// lines, the second page brings 99), then takes that shut guess: exit 1, "The request was cancelled
// (stopped after 199 lines)". Limits 299, 398, … alike.
import { expect, it } from 'vitest';
import { envFor, headless } from '../helpers/headless';
import { sandbox } from '../helpers/sandbox';

const KEY = 'lines-limit-key-5c1d';

it.each(['--ndjson', '--csv'])('lines %s --limit 200 prints 200 lines and exits 0', async (format) => {
  const { sb } = await sandbox({ lines: 240, demoKey: KEY });
  const r = await headless(['lines', format, '--limit', '200'], { env: envFor(sb.baseUrl, KEY) });
  expect({ code: r.code, stderr: r.stderr }).toEqual({
    code: 0,
    stderr: expect.not.stringMatching(/cancelled/),
  });
  const rows = r.stdout.split('\n').filter(Boolean).length;
  expect(rows).toBe(format === '--csv' ? 201 : 200);
});
