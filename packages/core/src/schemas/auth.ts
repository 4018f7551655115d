import { z } from 'zod';
import { MAX_LENGTH, email, text } from './common';

/** Passwords need at least this many characters (docs/product.md §9). */
export const PASSWORD_MIN_LENGTH = 4;
/**
 * Shown for a password shorter than {@link PASSWORD_MIN_LENGTH}. docs/product.md keeps this wording
 * although 4 characters are accepted ("both readings are present"); the rule is the minimum.
 */
export const PASSWORD_TOO_SHORT_MESSAGE = 'Your password should be greater than 4 characters long';
/** Shown when the confirmation differs from the password. */
export const PASSWORDS_DIFFER_MESSAGE = 'The two passwords do not match.';

/** Cookie holding the session token (docs/product.md §9). */
export const SESSION_COOKIE_NAME = 'authenticationToken';
/** "Keep me signed in" lasts this many days (docs/product.md §9). */
export const REMEMBER_ME_DAYS = 30;
/** The organisation sub-domain cookie lasts this many days (docs/product.md §9). */
export const SUBDOMAIN_COOKIE_DAYS = 365;

const loginEmail = email({
  required: 'Please provide an email address.',
  invalid: (value) => `${value} is not a valid email.`,
});
const domain = text({ max: 253 });

/** The login form (docs/product.md §5). */
export const loginForm = z.object({
  email: loginEmail,
  password: text({ max: MAX_LENGTH.password, required: 'Please provide a password.', trim: false }),
  rememberMe: z.boolean().default(false),
});
/** Type of {@link loginForm}. */
export type LoginForm = z.infer<typeof loginForm>;

/**
 * Body of POST /api/authenticate. Deliberately looser than {@link loginForm}: a malformed username
 * is simply a failed login, and revealing format rules here would not help anyone.
 */
export const authenticateInput = z.object({
  username: text({ max: MAX_LENGTH.email, required: 'Username is required' }),
  password: text({ max: MAX_LENGTH.password, required: 'Please provide a password.', trim: false }),
  domain: domain.optional(),
  rememberMe: z.boolean().optional(),
});
/** Type of {@link authenticateInput}. */
export type AuthenticateInput = z.infer<typeof authenticateInput>;

/** Body of the one-time-token login (route /login/{token}). */
export const tokenLoginInput = z.object({
  token: text({ max: MAX_LENGTH.token, required: 'Token is required', trim: false }),
  domain: domain.optional(),
  rememberMe: z.boolean().optional(),
});
/** Type of {@link tokenLoginInput}. */
export type TokenLoginInput = z.infer<typeof tokenLoginInput>;

/** Response of both logins. */
export const authenticateResponse = z.object({ id_token: z.string() });
/** Type of {@link authenticateResponse}. */
export type AuthenticateResponse = z.infer<typeof authenticateResponse>;

/** A new password: at least {@link PASSWORD_MIN_LENGTH} characters, spaces kept. */
export const newPasswordSchema = text({
  max: MAX_LENGTH.password,
  required: PASSWORD_TOO_SHORT_MESSAGE,
  trim: false,
}).min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT_MESSAGE);

/** Password and confirmation fields, unrefined so other forms can extend them. */
export const passwordFields = {
  password: newPasswordSchema,
  confirmPassword: z.string({ error: PASSWORDS_DIFFER_MESSAGE }).max(MAX_LENGTH.password),
};

/** Whether password and confirmation agree; pair with {@link PASSWORDS_MATCH_CHECK} in a refine. */
export function passwordsMatch(values: { password: string; confirmPassword: string }): boolean {
  return values.password === values.confirmPassword;
}

/** Refinement options shared by every form with a password confirmation. */
export const PASSWORDS_MATCH_CHECK = { path: ['confirmPassword'], message: PASSWORDS_DIFFER_MESSAGE };

/** The new-password form (password reset, docs/product.md §5). */
export const passwordForm = z.object(passwordFields).refine(passwordsMatch, PASSWORDS_MATCH_CHECK);
/** Type of {@link passwordForm}. */
export type PasswordForm = z.infer<typeof passwordForm>;

const resetEmail = email({
  required: 'Must be a valid email address',
  invalid: 'Must be a valid email address',
});

/** Body of POST /api/account/reset_password/init, and the reset request form. */
export const resetPasswordInitInput = z.object({ email: resetEmail });
/** Type of {@link resetPasswordInitInput}. */
export type ResetPasswordInitInput = z.infer<typeof resetPasswordInitInput>;

/** Body of POST /api/account/reset_password/finish; `key` comes from the `?key=` of the e-mail link. */
export const resetPasswordFinishInput = z.object({
  key: text({ max: MAX_LENGTH.token, required: 'Key is required', trim: false }),
  password: newPasswordSchema,
});
/** Type of {@link resetPasswordFinishInput}. */
export type ResetPasswordFinishInput = z.infer<typeof resetPasswordFinishInput>;

/** Body of POST /api/v1/account/findorganisations; same messages as the reset request. */
export const findOrganisationInput = z.object({ email: resetEmail });
/** Type of {@link findOrganisationInput}. */
export type FindOrganisationInput = z.infer<typeof findOrganisationInput>;

/** Strength meter level: 0 (weakest) to 4. */
export type PasswordStrength = 0 | 1 | 2 | 3 | 4;

/** Labels for the strength meter, by level. */
export const PASSWORD_STRENGTH_LABELS = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;

/**
 * Strength meter (docs/product.md §5: 5 levels by length bands up to 10, 20, 30, 40 and above, and
 * character classes). Our reading: the length band (counted in code points) gives the base
 * level, 0 for ≤10 up to 4 for >40; a password mixing at least three of lowercase, uppercase,
 * digits and symbols gains one level, one using a single class loses one; the result is clamped
 * to 0..4. Anything shorter than {@link PASSWORD_MIN_LENGTH} is 0.
 */
export function passwordStrength(password: string): PasswordStrength {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return 0;
  const band = length <= 10 ? 0 : length <= 20 ? 1 : length <= 30 ? 2 : length <= 40 ? 3 : 4;
  const classes = [/\p{Ll}/u, /\p{Lu}/u, /\p{N}/u, /[^\p{L}\p{N}]/u].filter((re) => re.test(password)).length;
  const adjustment = classes >= 3 ? 1 : classes <= 1 ? -1 : 0;
  return Math.min(4, Math.max(0, band + adjustment)) as PasswordStrength;
}
