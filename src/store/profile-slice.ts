import { typedText } from '../domain/line-form';
import { profileNameProblem } from '../domain/profile-name';
import type { GetState, LineToOpen, ProfileSummary, SetState, StoreDeps } from './deps';
import type { Load } from './types';

const IDLE: Load<true> = { status: 'idle' };

interface ProfileForm {
  readonly name: string;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly focus: 'name' | 'baseUrl' | 'apiKey';
  /** Why the name cannot be used, checked as it is typed (null while empty or good). */
  readonly nameError: string | null;
  /** The account checked and the profile saved on Enter: idle until then, and why it was not. */
  readonly check: Load<true>;
}

export interface ProfileSlice {
  /** The profiles as saved, read from the config file when the list opens. */
  readonly profileList: readonly ProfileSummary[];
  readonly currentProfile: string | null;
  /** Set when the app should end this pass and start again on that profile ('sandbox' too), with
   *  the line a find chose to open there once it has loaded. */
  readonly switchProfile: ProfileSwitch | null;
  readonly profileForm: ProfileForm | null;
  /** `:profile …` */
  profileCommand: (args: string) => void;
  setProfileField: (field: ProfileForm['focus'], text: string) => void;
  profileFormNext: () => void;
  submitProfileForm: () => Promise<void>;
  closeProfileForm: () => void;
  /** Ends this pass; the app starts again on `profile` (and opens `openLine` there). */
  switchToProfile: (profile: string, openLine?: ProfileSwitch['openLine']) => void;
}

interface ProfileSwitch {
  readonly profile: string;
  readonly openLine?: LineToOpen;
}

const FIELDS: ProfileForm['focus'][] = ['name', 'baseUrl', 'apiKey'];

export function createProfileSlice(set: SetState, get: GetState, deps: StoreDeps): ProfileSlice {
  const nameProblem = (name: string) => profileNameProblem(name, (n) => deps.profiles?.exists(n) ?? false);
  const say = (err: string | null, ok: string) => get().notify(err ?? ok, err ? 'error' : 'success');
  return {
    switchProfile: null,
    profileForm: null,
    profileList: [],
    currentProfile: deps.profiles?.current ?? null,

    profileCommand(args) {
      const p = deps.profiles;
      if (!p) return get().notify('Profiles are not available in this session', 'error');
      const [verb = 'list', a, b] = args.trim().split(/\s+/).filter(Boolean);
      switch (verb) {
        case 'list':
          set({ profileList: p.list() });
          return get().pushView({ id: 'profiles' });
        case 'use':
          if (!a) return get().notify('profile use NAME (or "sandbox")', 'error');
          if (a !== 'sandbox' && !p.exists(a)) return get().notify(`No profile "${a}"`, 'error');
          return get().switchToProfile(a);
        case 'add':
          set({
            profileForm: {
              name: a ?? '',
              baseUrl: '',
              apiKey: '',
              focus: a ? 'baseUrl' : 'name',
              nameError: a ? nameProblem(a) : null,
              check: IDLE,
            },
          });
          return get().pushView({ id: 'profileAdd' });
        case 'rename':
          if (!a || !b) return get().notify('profile rename OLD NEW', 'error');
          return say(p.rename(a, b), `Profile "${a}" is now "${b}"`);
        case 'remove':
          if (!a) return get().notify('profile remove NAME', 'error');
          return say(p.remove(a), `Profile "${a}" removed`);
        default:
          return get().notify(`profile: list, use NAME, add [NAME], rename OLD NEW, remove NAME`, 'error');
      }
    },
    setProfileField(field, text) {
      const f = get().profileForm;
      if (!f) return;
      const value = typedText(text);
      const nameError = field === 'name' ? (value.trim() ? nameProblem(value.trim()) : null) : f.nameError;
      set({ profileForm: { ...f, [field]: value, check: IDLE, nameError } });
    },
    profileFormNext() {
      const f = get().profileForm;
      if (f) set({ profileForm: { ...f, focus: FIELDS[(FIELDS.indexOf(f.focus) + 1) % FIELDS.length]! } });
    },
    async submitProfileForm() {
      const f = get().profileForm;
      if (!f || f.check.status === 'loading' || !deps.profiles) return;
      // A name that breaks the rule is said at once, not after the account check.
      const problem = nameProblem(f.name.trim());
      if (problem) return set({ profileForm: { ...f, nameError: problem, focus: 'name' } });
      set({ profileForm: { ...f, check: { status: 'loading' } } });
      const err = await deps.profiles.add(f.name.trim(), f.baseUrl.trim(), f.apiKey.trim());
      const now = get().profileForm;
      if (!now) return;
      // A wrong key or an unreachable host says so and keeps what was typed.
      if (err) return set({ profileForm: { ...now, check: { status: 'error', error: err } } });
      set({ profileForm: null });
      get().closeView('profileAdd');
      get().notify(
        `Profile "${f.name.trim()}" saved: :profile use ${f.name.trim()} switches to it`,
        'success',
      );
    },
    closeProfileForm() {
      set({ profileForm: null });
      get().closeView('profileAdd');
    },
    switchToProfile(profile, openLine) {
      set({ switchProfile: openLine ? { profile, openLine } : { profile } });
      get().quit();
    },
  };
}
