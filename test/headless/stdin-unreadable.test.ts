/**
 * `--stdin` when the server lists one of the lines given in a form that does not read: the line is
 * there (its item names it), so it is never "no line answers to" nor `line_not_found`; the words say
 * the server sent it in a form that does not read, and the code claims no absence.
 */
import { describe, expect, it } from 'vitest';
import { withBrokenItem } from '../helpers/broken-item';
import { envFor, headless } from '../helpers/headless';
import { DEMO_KEY, sandbox } from '../helpers/sandbox';

describe('--stdin: a line the server sends in a form that does not read', () => {
  it('is said so, never "no line answers" nor line_not_found', async () => {
    const { sb } = await sandbox({ lines: 40 });
    const srv = await withBrokenItem(sb.baseUrl);
    try {
      const env = envFor(srv.baseUrl, DEMO_KEY);
      const alone = await headless(['unsuspend', '--stdin', '--json'], { env, stdin: 'brokenline01\n' });
      expect(alone.code).toBe(1);
      expect(alone.stderr).not.toMatch(/no line answers/i);
      const err = JSON.parse(alone.stderr.trim().split('\n').at(-1)!).error;
      expect(err.code).not.toBe('line_not_found');
      expect(err.code).toBe('line_unsettled');
      expect(err.message).not.toMatch(/None of the lines given was found/);
      expect(alone.stderr).toMatch(
        /stdin line 1: "brokenline01" was not readable \(listed by the server in a form that does not read\)/,
      );
      // A line proven absent is still "not found" beside it.
      const both = await headless(['unsuspend', '--stdin', '--json'], {
        env,
        stdin: 'brokenline01\nno-such-line-here\n',
      });
      expect(both.stderr).toContain('stdin line 2: no line answers to "no-such-line-here"');
      expect(JSON.parse(both.stderr.trim().split('\n').at(-1)!).error.code).toBe('line_unsettled');
      // The same line named as an ID|USERNAME argument: the same code and exit, never line_not_found.
      const one = await headless(['unsuspend', 'brokenline01', '--json'], { env });
      expect(one.code).toBe(alone.code);
      const oneErr = JSON.parse(one.stderr.trim().split('\n').at(-1)!).error;
      expect(oneErr.code).toBe('line_unsettled');
      expect(oneErr.message).toMatch(/"brokenline01" was not readable/);
    } finally {
      await srv.close();
    }
  });

  it('--json lists the lines left out, and apart those not proven absent', async () => {
    const { sb } = await sandbox({ lines: 40 });
    const srv = await withBrokenItem(sb.baseUrl);
    try {
      const env = envFor(srv.baseUrl, DEMO_KEY);
      const suspended = JSON.parse(
        (await headless(['lines', '--status', 'suspended', '--ndjson', '--limit', '1'], { env })).stdout,
      ) as { username: string };
      const r = await headless(['unsuspend', '--stdin', '--json', '--yes'], {
        env,
        stdin: `${suspended.username}\nbrokenline01\n`,
      });
      const doc = JSON.parse(r.stdout) as { notFound: string[]; notProvenAbsent?: string[] };
      expect(doc.notFound).toEqual(['brokenline01']);
      // Maybe still there: a script must not take it for deleted.
      expect(doc.notProvenAbsent).toEqual(['brokenline01']);
    } finally {
      await srv.close();
    }
  });
});
