import { z } from 'zod';
import {
  ORGANISATION_DOMAIN_MAX_LENGTH,
  ORGANISATION_DOMAIN_MIN_LENGTH,
  normaliseOrganisationDomain,
} from '../keys';
import {
  PASSWORDS_MATCH_CHECK,
  newPasswordSchema,
  passwordFields,
  passwordsMatch,
  resetPasswordInitInput,
} from './auth';
import { MAX_LENGTH, email, normalisedKey, text } from './common';

/** Digits in a signup pin (docs/product.md §9). */
export const SIGNUP_PIN_LENGTH = 6;
/** Shown for a pin that is not 6 digits (docs/product.md §5). */
export const PIN_MESSAGE = 'The pin you have entered is invalid.';
/** Suffixes offered when a domain is taken (docs/product.md §8). */
export const DOMAIN_SUGGESTION_SUFFIXES = ['global', 'group', 'company'] as const;
/** How long an e-mailed signup pin works (docs/product.md §4 Signup wizard). */
export const SIGNUP_PIN_LIFETIME_MINUTES = 15;
/** Pins that may be tried against one `once`; the pin is dead after that many wrong ones. */
export const SIGNUP_PIN_TRIES = 5;
/** A validated pin stays good for createaccount this long, to finish the wizard's other steps. */
export const SIGNUP_COMPLETION_MINUTES = 60;
/** Shown for a taken or reserved domain (docs/product.md §8). */
export const DOMAIN_UNAVAILABLE_MESSAGE = 'The domain name is unavailable';
/** The wizard's last step got no token back (docs/product.md §8). */
export const SIGNUP_FAILED_MESSAGE = 'Signup failed, no signup token sent';

/**
 * Domains no organisation may take: names of the product's own addresses (sub-domains such as www,
 * api and app) and its top-level paths, which the path form `/{organisation}/login` would shadow.
 */
export const RESERVED_ORGANISATION_DOMAINS: ReadonlySet<string> = new Set([
  'www',
  'api',
  'app',
  'apps',
  'admin',
  'administrator',
  'root',
  'mail',
  'smtp',
  'static',
  'assets',
  'cdn',
  'docs',
  'help',
  'support',
  'status',
  'blog',
  'billing',
  'login',
  'logout',
  'signup',
  'sign-up',
  'signin',
  'sign-in',
  'activate',
  'invited',
  'resetpassword',
  'forgot-password',
  'find-organisation',
  'account',
  'accounts',
  'home',
  'profile',
  'features',
  'projects',
  'test',
  'ofrep',
  'sdk',
  'vexil',
  'system',
  'health',
  'metrics',
  'auth',
  'oauth',
  'sso',
  'security',
]);

/** Whether a (normalised) domain is one of {@link RESERVED_ORGANISATION_DOMAINS}. */
export function isReservedOrganisationDomain(domain: string): boolean {
  return RESERVED_ORGANISATION_DOMAINS.has(normaliseOrganisationDomain(domain));
}

const signupEmail = email({
  required: 'Please provide an email address.',
  invalid: (value) => `${value} is not a valid email.`,
});
const once = text({ max: MAX_LENGTH.token, required: 'Signup token is required', trim: false });
const pin = z.string({ error: PIN_MESSAGE }).regex(/^\d{6}$/, PIN_MESSAGE);
const firstName = text({ max: MAX_LENGTH.name, required: 'First name is required' });
const lastName = text({ max: MAX_LENGTH.name, required: 'Last name is required' });
const organisationName = text({ max: MAX_LENGTH.name, required: 'The Organisation name is required' });

/** An organisation sub-domain, normalised (docs/product.md §5) and at least 4 characters long. */
export const organisationDomainSchema = normalisedKey(
  normaliseOrganisationDomain,
  'The domain is required',
).min(
  ORGANISATION_DOMAIN_MIN_LENGTH,
  `The domain must be at least ${ORGANISATION_DOMAIN_MIN_LENGTH} characters long.`,
);

/** Alternatives offered for a taken domain: `acme-global`, `acme-group`, `acme-company`. */
export function domainSuggestions(domain: string): string[] {
  const base = normaliseOrganisationDomain(domain);
  return DOMAIN_SUGGESTION_SUFFIXES.map((suffix) =>
    normaliseOrganisationDomain(
      `${base.slice(0, ORGANISATION_DOMAIN_MAX_LENGTH - suffix.length - 1)}-${suffix}`,
    ),
  );
}

/**
 * Body of POST /api/v1/signup/registeremail. `previousOnce`, when the user asks for a new pin: the
 * `once` of the pin it replaces, which stops working.
 */
export const registerEmailInput = z.object({
  email: signupEmail,
  beta: z.boolean().default(false),
  previousOnce: once.optional(),
});
/** Type of {@link registerEmailInput}. */
export type RegisterEmailInput = z.infer<typeof registerEmailInput>;

/** Response of registeremail: the one-time value that pairs the e-mail with its pin. */
export const registerEmailResponse = z.object({ once: z.string() });
/** Type of {@link registerEmailResponse}. */
export type RegisterEmailResponse = z.infer<typeof registerEmailResponse>;

/** Body of POST /api/v1/signup/validatepin. */
export const validatePinInput = z.object({ email: signupEmail, once, pin });
/** Type of {@link validatePinInput}. */
export type ValidatePinInput = z.infer<typeof validatePinInput>;

/** Body of POST /api/v1/signup/checkdomain. */
export const checkDomainInput = z.object({ domain: organisationDomainSchema });
/** Type of {@link checkDomainInput}. */
export type CheckDomainInput = z.infer<typeof checkDomainInput>;

/** Response of checkdomain; `suggestions` are free alternatives when it is taken. */
export const checkDomainResponse = z.object({ available: z.boolean(), suggestions: z.array(z.string()) });
/** Type of {@link checkDomainResponse}. */
export type CheckDomainResponse = z.infer<typeof checkDomainResponse>;

/** Wizard step 0: e-mail. */
export const signupEmailForm = z.object({ email: signupEmail });
/** Wizard step 0: the pin sent by e-mail (auto-submitted at 6 digits). */
export const signupPinForm = z.object({ pin });
/** Wizard step 2: names. */
export const signupNameForm = z.object({ firstName, lastName });
/** Wizard step 3: organisation. */
export const signupOrganisationForm = z.object({
  organisationName,
  organisationDomain: organisationDomainSchema,
});

const createAccountFields = {
  email: signupEmail,
  once,
  pin,
  firstName,
  lastName,
  organisationName,
  organisationDomain: organisationDomainSchema,
};

/**
 * Body of POST /api/v1/signup/createaccount. `confirmPassword`, sent by the wizard, must then equal
 * the password.
 */
export const createAccountInput = z
  .object({
    ...createAccountFields,
    ...passwordFields,
    confirmPassword: passwordFields.confirmPassword.optional(),
  })
  .refine((v) => v.confirmPassword === undefined || v.password === v.confirmPassword, PASSWORDS_MATCH_CHECK);
/** Type of {@link createAccountInput}. */
export type CreateAccountInput = z.infer<typeof createAccountInput>;

/**
 * Response of createaccount: a one-time login token for the new organisation, and its domain as
 * stored (normalised), for `/login/{token}` on that organisation's address.
 */
export const createAccountResponse = z.object({ token: z.string(), domain: z.string() });
/** Type of {@link createAccountResponse}. */
export type CreateAccountResponse = z.infer<typeof createAccountResponse>;

/** The whole signup wizard (docs/product.md §3), password confirmation included. */
export const signupForm = z
  .object({ ...createAccountFields, ...passwordFields })
  .refine(passwordsMatch, PASSWORDS_MATCH_CHECK);
/** Type of {@link signupForm}. */
export type SignupForm = z.infer<typeof signupForm>;

/** Body of POST /api/v1/signup/invitee/. */
export const inviteeSignupInput = z.object({
  activationKey: text({ max: MAX_LENGTH.token, required: 'Activation key is required', trim: false }),
  firstName,
  lastName,
  password: newPasswordSchema,
});
/** Type of {@link inviteeSignupInput}. */
export type InviteeSignupInput = z.infer<typeof inviteeSignupInput>;

/** The invited-user signup form. */
export const inviteeSignupForm = z
  .object({ firstName, lastName, ...passwordFields })
  .refine(passwordsMatch, PASSWORDS_MATCH_CHECK);
/** Type of {@link inviteeSignupForm}. */
export type InviteeSignupForm = z.infer<typeof inviteeSignupForm>;

/** GET /api/v1/signup/invitee/{activationKey} found no live invitation (docs/product.md §8). */
export const INVITEE_NOT_FOUND_MESSAGE = 'We cannot find you!';
/** The invitation was already accepted (docs/product.md §8). */
export const INVITEE_ALREADY_ACTIVATED_MESSAGE = 'It looks like you have already activated your account!';

/** Response of POST /api/v1/signup/invitee/: the session (also set as the cookie) and its organisation. */
export const inviteeSignupResponse = z.object({ id_token: z.string(), domain: z.string() });
/** Type of {@link inviteeSignupResponse}. */
export type InviteeSignupResponse = z.infer<typeof inviteeSignupResponse>;

/** How long a password reset link works. */
export const RESET_PASSWORD_LIFETIME_MINUTES = 60;
/** Reset request answered (docs/product.md §8). */
export const RESET_REQUEST_SENT_MESSAGE = 'An email has been sent with details to reset your password.';
/** Reset request failed (docs/product.md §8). */
export const RESET_REQUEST_FAILED_MESSAGE =
  'If your email exists for this organisation a password reset email will be sent. If you do not receive an email please contact your administrator';
/** Reset finish failed without a server message, and the server's title for a bad key (docs/product.md §8). */
export const RESET_FINISH_FAILED_MESSAGE = 'There was an error resetting your password';
/** Find organisation answered: the same words whether or not the address has any. */
export const FIND_ORGANISATION_SENT_MESSAGE =
  'If this address belongs to any organisation, an email listing their sign-in addresses has been sent to it.';
/** Find organisation failed without a server message (docs/product.md §8). */
export const FIND_ORGANISATION_FAILED_MESSAGE = 'An error occurred sending the form.';

/**
 * Body of POST /api/account/reset_password/init: the e-mail, and the organisation's domain when the
 * address (host or `/{organisation}/api` path) does not name it, as for sign-in.
 */
export const resetPasswordRequestInput = resetPasswordInitInput.extend({
  domain: text({ max: 253 }).optional(),
});
/** Type of {@link resetPasswordRequestInput}. */
export type ResetPasswordRequestInput = z.infer<typeof resetPasswordRequestInput>;

/** Response of POST /api/account/reset_password/finish: the organisation to sign in to. */
export const resetPasswordFinishResponse = z.object({ domain: z.string() });
/** Type of {@link resetPasswordFinishResponse}. */
export type ResetPasswordFinishResponse = z.infer<typeof resetPasswordFinishResponse>;

function baseUrl(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

/** The link a password reset e-mail sends: `{public URL}/resetpassword?key={key}` (docs/product.md §2). */
export function resetPasswordLink(publicUrl: string, key: string): string {
  return `${baseUrl(publicUrl)}/resetpassword?key=${encodeURIComponent(key)}`;
}

/** An organisation's sign-in address in the path form, which works on every deployment. */
export function organisationLoginLink(publicUrl: string, domain: string): string {
  return `${baseUrl(publicUrl)}/${encodeURIComponent(domain)}/login`;
}
