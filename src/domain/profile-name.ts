/** Profile names: short, shell- and file-safe. */
export const PROFILE_NAME = /^[A-Za-z0-9._-]{1,32}$/;

/** The rule in words, shown beside the form's name field. */
export const PROFILE_NAME_RULE = 'letters, digits, . _ - (at most 32)';

/** Why a profile name cannot be used, or null; `exists` says whether a profile already has it. */
export function profileNameProblem(name: string, exists: (name: string) => boolean): string | null {
  if (!PROFILE_NAME.test(name)) return `A profile name takes ${PROFILE_NAME_RULE}`;
  if (exists(name)) return `A profile "${name}" exists already`;
  return null;
}
