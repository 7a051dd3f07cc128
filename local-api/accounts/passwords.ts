/**
 * Passwords of console accounts (docs/security.md, "Accounts and sessions"): argon2id with the library's defaults (19 MiB, two
 * passes), computed on libuv's threads so a sign-in does not stall the event loop.
 */
export const passwordRules = { minLength: 10, maxLength: 200 } as const;

/**
 * Passwords people pick first, ten characters or longer: refused as a new password. A short list on purpose: the
 * length rule and the sign-in delays (lockout.ts) do most of the work; this catches the few a guesser tries first.
 */
const commonPasswords = new Set([
  '1234567890',
  '0123456789',
  '12345678910',
  '123456789a',
  'a123456789',
  '1q2w3e4r5t',
  '1qaz2wsx3edc',
  'qwertyuiop',
  'qwertyuiop123',
  'asdfghjkl1',
  'password12',
  'password123',
  'password1234',
  'passw0rd123',
  'iloveyou12',
  'abcdefghij',
  'abcd123456',
  'administrator',
  'admin12345',
  'admin123456',
  'changeme123',
  'welcome123',
  'letmein123',
  'football123',
  'portaria123',
  'senha12345',
  'senha123456',
  'passwort123',
  'woaini1314',
  'qwerty1234',
  'qwerty12345',
  '1111111111',
  '0000000000',
  '9876543210',
]);

export type PasswordProblem = 'tooShort' | 'tooLong' | 'tooCommon';

/**
 * Why a new password is refused, or undefined when it is fine: too short or too long (argon2 hashes any length, but
 * a megabyte of password is a cost, not a secret), a common one, or the person's own e-mail (or its name part).
 */
export function passwordProblem(password: string, email: string): PasswordProblem | undefined {
  const length = [...password].length;
  if (length < passwordRules.minLength) return 'tooShort';
  if (length > passwordRules.maxLength) return 'tooLong';
  const lower = password.toLowerCase();
  const mailbox = email.toLowerCase();
  if (commonPasswords.has(lower) || lower === mailbox || lower === mailbox.split('@')[0]) return 'tooCommon';
  // One to three characters over and over: `aaaaaaaaaa`, `abcabcabcabc`.
  if (/^(.{1,3})\1+$/u.test(password)) return 'tooCommon';
  return undefined;
}

/** The argon2 addon, loaded on the first password: a kiosk without console accounts never loads it. */
const argon2 = () => import('@node-rs/argon2');

export const hashPassword = async (password: string): Promise<string> => await (await argon2()).hash(password);

/**
 * A hash of a password no one knows, made once: a sign-in with an unknown e-mail is checked against it, so it
 * takes as long as one with a known e-mail and a wrong password.
 */
let dummy: Promise<string> | undefined;
const dummyHash = () => {
  dummy ??= argon2().then(({ hash }) => hash('not the password of anyone'));
  return dummy;
};

/** Whether `password` is the one of `stored`; with `stored` undefined, false after the same work. */
export async function passwordMatches(stored: string | null | undefined, password: string): Promise<boolean> {
  const { verify } = await argon2();
  if (!stored) {
    await verify(await dummyHash(), password).catch(() => false);
    return false;
  }
  return await verify(stored, password).catch(() => false);
}
