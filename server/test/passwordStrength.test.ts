import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { createTestContext, type TestContext, uniqueEmail } from './helpers.js';

// Password strength (docs/security.md): `password` and `12345678` used to be accepted. zxcvbn judges strength (score
// 3 of 4 at least), with the person's own email and names as words an attacker would try;
// the minimum length stays 8 (NIST 800-63B), with no composition rules. The reset form's
// checks are in passwordReset.test.ts.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const HEAVILY_USED = 'The password is too easy to guess. This is a heavily used password. Add more words that are less common.';
const PERSONAL = 'The password is too easy to guess. There should not be any personal or page related data. Add more words that are less common.';

const register = (fields: Record<string, unknown>) => {
  const password = fields.password;
  return ctx.register({ password_confirmation: password, ...fields });
};

describe('POST /register: password strength', () => {
  it.each(['password', '12345678', 'qwertyuiop', 'Password1', 'iloveyou'])('refuses %j with zxcvbn’s feedback on password', async (password) => {
    const response = await register({ password });
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(Object.keys(body.errors)).toEqual(['password']);
    expect(body.errors.password).toHaveLength(1);
    expect(body.errors.password[0]).toMatch(/^The password is too easy to guess\. \S/);
    expect(body.message).toBe(body.errors.password[0]);
  });

  it('gives the warning and the suggestions of the library', async () => {
    const response = await register({ password: 'password' });
    expect(response.json().errors.password).toEqual([HEAVILY_USED]);
  });

  it('refuses a password made of the person’s own email or names, which someone else may use', async () => {
    const email = uniqueEmail('wilhelmina');
    const own = await register({ firstname: 'Wilhelmina', lastname: 'Zwanenburg', email, password: 'wilhelminazwanenburg' });
    expect(own.statusCode).toBe(422);
    expect(own.json().errors).toEqual({ password: [PERSONAL] });

    const ownEmail = await register({ email, password: email });
    expect(ownEmail.json().errors).toEqual({ password: [PERSONAL] });

    // The same strings are fine for a person they say nothing about.
    expect((await register({ firstname: 'Ada', lastname: 'Lovelace', password: 'wilhelminazwanenburg' })).statusCode).toBe(201);
    expect((await register({ password: email })).statusCode).toBe(201);
  });

  it('judges the password even when other fields are wrong, and with a mismatched confirmation', async () => {
    const response = await ctx.register({ email: 'nope', password: 'password', password_confirmation: 'different' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      email: ['Invalid email'],
      password: [HEAVILY_USED, 'The password confirmation does not match.'],
      password_confirmation: ['The password confirmation does not match.'],
    });
  });

  it('does not judge a password already refused for its length', async () => {
    const response = await register({ password: '1234567' });
    expect(response.json().errors).toEqual({ password: ['The password field must be at least 8 characters.'] });
  });

  it('asks for no composition rules: lowercase words alone do', async () => {
    expect((await register({ password: 'purple monkey dishwasher' })).statusCode).toBe(201);
    expect((await register({ password: 'correct horse battery staple' })).statusCode).toBe(201);
  });

  it('creates no account for a weak password', async () => {
    const email = uniqueEmail('weak');
    await register({ email, password: '12345678' });
    expect(await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });
});

describe('npm run cli -- user:create: password strength', () => {
  const cli = async (password: string, email = uniqueEmail('cli')) => {
    const err: string[] = [];
    const code = await runCli(
      ['user:create', '--email', email, '--password', password, '--firstname', 'Radia', '--lastname', 'Perlman'],
      ctx.db,
      { out: () => {}, err: (line) => err.push(line) },
    );
    return { code, err: err.join('\n'), email };
  };

  it('refuses a weak password with the feedback, and creates nobody', async () => {
    const result = await cli('12345678');
    expect(result).toMatchObject({ code: 1, err: `--password: ${HEAVILY_USED}` });
    expect(await ctx.db.selectFrom('users').select('id').where('email', '=', result.email).executeTakeFirst()).toBeUndefined();
  });

  it('refuses the person’s own names as a password', async () => {
    expect(await cli('radiaperlman')).toMatchObject({ code: 1, err: expect.stringContaining('personal') });
  });

  it('accepts a strong one', async () => {
    expect((await cli('spanning tree protocol')).code).toBe(0);
  });
});

describe('zxcvbn limits (a long password must not hold the event loop)', () => {
  it('judges only the first 32 characters, with the same limits as the console', async () => {
    const { ZXCVBN_LIMITS, weakPasswordMessage } = await import('../src/auth/passwordStrength.js');
    const console = await import('../../src/utils/zxcvbn.js');
    expect(ZXCVBN_LIMITS).toEqual({ maxLength: 32, l33tMaxSubstitutions: 8 });
    expect(console.ZXCVBN_LIMITS).toEqual(ZXCVBN_LIMITS);
    // With zxcvbn's default (256 characters) these took seconds each; past 32 characters the
    // tail is not judged, so the long and the cut versions get the same verdict.
    for (const long of ['1'.repeat(1024), 'p@$$w0rd!'.repeat(30)]) {
      expect(weakPasswordMessage(long)).toBe(weakPasswordMessage(long.slice(0, 32)));
      expect(console.judgePassword(long, []).score).toBe(console.judgePassword(long.slice(0, 32), []).score);
    }
  });
});

describe('a long email as the password', () => {
  it('is still refused although only the first 32 characters are judged', async () => {
    const { weakPasswordMessage, personalWords } = await import('../src/auth/passwordStrength.js');
    const email = 'wilhelmina.zwanenburg.research.lab@example.org';
    expect(weakPasswordMessage(email, personalWords({ email }))).toMatch(/^The password is too easy to guess\./);
    const console = await import('../../src/utils/zxcvbn.js');
    expect(console.judgePassword(email, [email]).score).toBeLessThan(3);
  });
});
