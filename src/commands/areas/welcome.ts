import { c, type Run } from '../command';

/**
 * The welcome screen's keys (ui/screens/WelcomeScreen.tsx: the first start, with no config yet). It
 * runs before the store exists, so it acts on the command a key finds (keys/welcome.ts), by id:
 * `run` has nothing of the store's to do. No config means no `keys` of yours: these keys are fixed.
 */
const onTheWelcome: Run = () => {};

export const WELCOME_COMMANDS = [
  // Choosing the sandbox or an account (two choices: either key moves to the other).
  c('welcome.up', ['up', 'k'], 'welcome', 'Navigate', 'Previous choice', onTheWelcome, { footer: true }),
  c('welcome.down', ['down', 'j'], 'welcome', 'Navigate', 'Next choice', onTheWelcome, { footer: true }),
  c('welcome.confirm', ['enter'], 'welcome', 'App', 'Confirm the choice', onTheWelcome, { footer: true }),
  c('welcome.quit', ['q', 'escape', 'ctrl+c'], 'welcome', 'App', 'Quit', onTheWelcome, { footer: true }),
  // Connecting an account: the base URL and the API key (typed text; these keys are not).
  c('connect.nextField', ['tab', 'down'], 'connect', 'Input', 'Next field', onTheWelcome, { footer: true }),
  c('connect.previousField', ['shift+tab', 'up'], 'connect', 'Input', 'Previous field', onTheWelcome),
  c(
    'connect.check',
    ['enter'],
    'connect',
    'App',
    'Check the account and save it as profile "default" (on the URL with no key yet: on to the key)',
    onTheWelcome,
    { footer: true },
  ),
  c('connect.back', ['escape'], 'connect', 'App', 'Back to the choice', onTheWelcome, { footer: true }),
  c('connect.quit', ['ctrl+c'], 'connect', 'App', 'Quit', onTheWelcome),
] as const;
