/**
 * `linedesk __complete profiles|templates` (hidden): the names a shell completion offers that only
 * the config knows. The scripts call it as they complete, so a profile added a minute ago completes
 * and the script never parses the config itself. Never an error: a config it cannot read offers no
 * profiles and the default templates.
 */
import { loadConfig } from '../app/config';
import { loadTemplates } from '../domain/templates';
import { parseViews } from '../present/saved-views';

export function completeValues(what: string, path?: string): string[] {
  let config: ReturnType<typeof loadConfig> = null;
  try {
    config = path === undefined ? loadConfig() : loadConfig(path);
  } catch {
    config = null;
  }
  if (what === 'profiles') return Object.keys(config?.profiles ?? {}).sort();
  if (what === 'templates') return loadTemplates(config?.templates).templates.map((t) => t.id);
  if (what === 'views') return parseViews(config?.views).views.map((v) => v.name);
  return [];
}
