import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { configDir, dataDir, stateDir } from '../paths';

/** linedesk's directories on this machine: the config (profiles, keys), the data, the log. */
export type DirRole = 'config' | 'data' | 'state';

const VARIABLE: Readonly<Record<DirRole, string>> = {
  config: 'LINEDESK_CONFIG_DIR',
  data: 'LINEDESK_DATA_DIR',
  state: 'LINEDESK_STATE_DIR',
};

const dirOf = (role: DirRole, env: NodeJS.ProcessEnv) =>
  role === 'config' ? configDir(env) : role === 'data' ? dataDir(env) : stateDir(env);

const writable = (path: string) => {
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * What stops linedesk from using `dir` (or creating it when it is first written to), in words, or
 * null. Nothing is created here: a command that never writes leaves no directory behind.
 */
function dirProblem(dir: string): string | null {
  let at = dir;
  for (;;) {
    let isDir: boolean;
    try {
      isDir = statSync(at).isDirectory();
    } catch {
      // Missing (ENOENT) or under a file (ENOTDIR): the nearest existing part decides.
      const up = dirname(at);
      if (up === at) return `cannot be created: ${at} cannot be read`;
      at = up;
      continue;
    }
    if (at === dir)
      return isDir
        ? writable(dir)
          ? null
          : 'cannot be written (permission denied)'
        : 'is a file, not a directory';
    if (!isDir) return `cannot be created: ${at} is a file, not a directory`;
    return writable(at) ? null : `cannot be created: ${at} cannot be written (permission denied)`;
  }
}

/**
 * One sentence per directory of `roles` that cannot be used, naming the path, what is wrong, and the
 * variable that moves it.
 */
export function homeProblems(env: NodeJS.ProcessEnv, roles: readonly DirRole[]): string[] {
  const out: string[] = [];
  for (const role of roles) {
    const dir = dirOf(role, env);
    const problem = dirProblem(dir);
    if (!problem) continue;
    const home = homedir();
    const homeGone =
      dir.startsWith(`${home}/`) && !exists(home) ? ` (the home directory ${home} does not exist)` : '';
    out.push(
      `the ${role} directory ${dir} ${problem}${homeGone}. Fix the path, or set ${VARIABLE[role]} to a directory linedesk can create and write to.`,
    );
  }
  return out;
}

const exists = (path: string) => {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
};
