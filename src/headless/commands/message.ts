import { EXIT } from '../failure';
import type { Ctx } from '../session';

export async function messageCommand(ctx: Ctx): Promise<number> {
  ctx.out.fail({ code: 'not_yet', message: 'not yet', path: null, exit: EXIT.failed });
  return EXIT.failed;
}
