import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CreateLineBody,
  CreateTrialBody,
  type Package,
  USERNAME_MAX,
  USERNAME_MIN,
} from '../../src/api/contract';
import {
  buildBody,
  EMPTY_FORM,
  fieldError,
  fieldsFor,
  formErrors,
  randomCredential,
  typedText,
} from '../../src/domain/line-form';

const pkg = { id: 3, duration: 12, is_trial: false } as Package;
const trialPkg = { id: 9, duration: 24, is_trial: true } as Package;

describe('the line form, pure', () => {
  it('each text field says what is wrong with it, and blank optional text is fine', () => {
    const v = (patch: Partial<typeof EMPTY_FORM>) => ({ ...EMPTY_FORM, packageId: 3, ...patch });
    expect(fieldError('username', v({ username: 'ab' }), [pkg])).toMatch(/\d/);
    expect(fieldError('username', v({ username: 'has space here' }), [pkg])).not.toBeNull();
    expect(fieldError('username', v({ username: 'good.user-0001' }), [pkg])).toBeNull();
    expect(fieldError('macaddress', v({ macaddress: '00:1A:79:12:34' }), [pkg])).not.toBeNull();
    expect(fieldError('macaddress', v({ macaddress: '00:1A:79:12:34:56' }), [pkg])).toBeNull();
    expect(fieldError('parental_code', v({ parental_code: '12a4' }), [pkg])).not.toBeNull();
    expect(fieldError('parental_code', v({ parental_code: '1234' }), [pkg])).toBeNull();
    expect(fieldError('label', v({ label: 'x'.repeat(31) }), [pkg])).not.toBeNull();
    for (const id of ['username', 'password', 'label', 'macaddress', 'parental_code'] as const)
      expect(fieldError(id, v({}), [pkg]), id).toBeNull();
    expect(fieldError('package', { ...EMPTY_FORM, packageId: 99 }, [pkg])).toBe('Choose a package');
    expect(fieldError('connections', v({ connections: 7 }), [pkg])).toMatch(/1 to 6/);
  });

  it('a trial form has no connections field and never reports one', () => {
    expect(fieldsFor(true).map((f) => f.id)).not.toContain('connections');
    expect(formErrors(true, { ...EMPTY_FORM, packageId: 9, connections: 9 }, [trialPkg])).toEqual({});
    expect(formErrors(false, { ...EMPTY_FORM, packageId: 3, connections: 9 }, [pkg])).toHaveProperty(
      'connections',
    );
  });

  it('a random credential always passes the username rule', () => {
    fc.assert(
      fc.property(fc.integer({ min: USERNAME_MIN, max: USERNAME_MAX }), (n) => {
        const u = randomCredential(n);
        expect(u).toHaveLength(n);
        expect(fieldError('username', { ...EMPTY_FORM, username: u }, [])).toBeNull();
      }),
    );
  });

  it('the body is exact: a blank username is filled here (so an unknown outcome can be looked up), blanks are left out, a trial sends no connections', () => {
    const v = { ...EMPTY_FORM, packageId: 3, connections: 2, label: 'Kitchen', bouquets: [4, 5] };
    const body = buildBody(false, v, pkg) as Record<string, unknown>;
    expect(body.username).toMatch(/^ld[A-Za-z0-9]{12}$/);
    expect(body).toEqual({
      duration: 12,
      username: body.username,
      enabled: true,
      connections: 2,
      label: 'Kitchen',
      bouquets: [4, 5],
    });
    expect(CreateLineBody.safeParse(body).success).toBe(true);
    const trial = buildBody(true, { ...v, username: 'given.name.01' }, trialPkg) as Record<string, unknown>;
    expect(trial).not.toHaveProperty('connections');
    expect(trial.username).toBe('given.name.01');
    expect(CreateTrialBody.safeParse(trial).success).toBe(true);
  });

  it('typed text never carries control characters', () => {
    expect(typedText('ab\tc\r\nd\u001b[31m\u007f')).toBe('abcd[31m');
    // A one-character CSI (C1) would still act when drawn; bidi overrides reorder what is shown.
    expect(typedText('a\u009b31mb\u202ec\u2066d\u200be')).toBe('a31mbcde');
    expect(typedText('José 🙂 Ñ')).toBe('José 🙂 Ñ');
  });
});
