import { buildLinks, linkValues } from '../../domain/links';
import { fillTemplate, loadTemplates } from '../../domain/templates';
import { EXIT } from '../failure';
import { type Ctx, withServices } from '../session';
import { invalid } from './change-params';

/**
 * A customer message: a template (the defaults, and the config's `templates` over them) filled with
 * a line's details, the account's portal and server, and the line's note on this machine.
 */
export async function messageCommand(ctx: Ctx): Promise<number> {
  const { run, out } = ctx;
  const { templates, errors } = loadTemplates(ctx.config().config?.templates);
  for (const e of errors) out.message(e, 'yellow');
  if (run.values.list) {
    if (run.format === 'json') await out.data(`${JSON.stringify({ templates }, null, 2)}\n`);
    else await out.data(templates.map((t) => `${t.id}\t${t.name}\n`).join(''));
    return EXIT.done;
  }
  const [id, wanted] = run.args as [string, string];
  const template = templates.find((t) => t.id === id);
  if (!template) {
    const f = invalid('template', `No template "${id}" (known: ${templates.map((t) => t.id).join(', ')})`);
    out.fail(f);
    return f.exit;
  }
  return withServices(ctx, async (sv) => {
    // Without the account the portal is left blank (the server's from the line): still a message.
    const [got, acct] = await Promise.all([sv.lookupOne(wanted), sv.client.me().catch(() => null)]);
    if ('failure' in got) {
      out.fail(got.failure);
      return got.failure.exit;
    }
    const { line } = got;
    const note = sv.notes.get(line.id) ?? null;
    const text = fillTemplate(
      template,
      {
        username: line.username,
        password: line.password,
        // An expiry the server sent but that could not be read is left blank, never "never".
        expMs: line.exp_date === null ? null : (line.exp_date.ms ?? Number.NaN),
        portal: acct?.server_information.mag_portal_url ?? null,
        server: line.hostname ?? acct?.server_information.hostname ?? null,
        label: line.label,
        note,
        connections: line.connections,
        links: linkValues(buildLinks(line, acct, sv.links)),
      },
      ctx.now(),
    );
    if (run.format === 'json')
      await out.data(
        `${JSON.stringify({ template: template.id, id: line.id, username: line.username, message: text }, null, 2)}\n`,
      );
    else await out.data(`${text.replace(/\n+$/, '')}\n`);
    return EXIT.done;
  });
}
