import { z } from 'zod';
import { AUTHORITIES } from '../permissions';
import { MAX_LENGTH, dateTimeSchema, text } from './common';
import { ASSIGNABLE_AUTHORITIES } from './team';

/*
 * Single sign-on with OpenID Connect (docs/product.md "Single sign-on"): one connection per
 * organisation, configured by its admins. The client secret is write-only: it is stored encrypted
 * and never returned, only whether one is stored.
 */

/** What others than organisation admins are told on Admin › Single sign-on and by its routes. */
export const SSO_ADMINS_ONLY = 'Only organisation admins may manage single sign-on.';

/** The longest issuer URL or client id accepted. */
export const SSO_MAX_LENGTH = { issuer: 2000, clientId: 500, clientSecret: 2000, domain: 253 } as const;

/** Most e-mail domains one connection may allow. */
export const SSO_MAX_ALLOWED_DOMAINS = 50;

/** An e-mail domain such as `example.com`: lowercase labels of letters, digits and hyphens. */
const emailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'Must not be empty.')
  .max(SSO_MAX_LENGTH.domain, `Must be at most ${SSO_MAX_LENGTH.domain} characters.`)
  .regex(
    /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
    'Must be a domain such as example.com.',
  );

/** The SSO connection as organisation admins see it (GET/PUT /api/v1/sso). */
export const ssoConnectionSchema = z.object({
  /** Shown on the sign-in button: "Sign in with {displayName}". */
  displayName: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  /** True when a client secret is stored (it is never returned). */
  hasClientSecret: z.boolean(),
  /** E-mail domains whose people may sign in; new people from them become members. */
  allowedDomains: z.array(z.string()),
  /** The role a person signing in for the first time is given. */
  defaultRole: z.enum(ASSIGNABLE_AUTHORITIES),
  /** When true, members who are not organisation admins cannot sign in with a password. */
  required: z.boolean(),
  lastModifiedDate: dateTimeSchema,
});
/** Type of {@link ssoConnectionSchema}. */
export type SsoConnection = z.infer<typeof ssoConnectionSchema>;

/**
 * Response of GET /api/v1/sso: the connection (null until one is configured) and the redirect URI to
 * register at the identity provider.
 */
export const ssoSettingsSchema = z.object({
  connection: ssoConnectionSchema.nullable(),
  redirectUri: z.string(),
});
/** Type of {@link ssoSettingsSchema}. */
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

/**
 * Body of PUT /api/v1/sso. `clientSecret` omitted keeps the stored one (required the first time for
 * a confidential client; an empty string clears it, for a public client using PKCE only). The server
 * reads the issuer's discovery document before saving and refuses an issuer it cannot read.
 */
export const ssoConnectionInput = z.object({
  displayName: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
  issuer: text({ max: SSO_MAX_LENGTH.issuer, required: 'Issuer URL is required' }).pipe(
    z.url({ protocol: /^https?$/, error: 'Must be a valid http(s) URL.' }),
  ),
  clientId: text({ max: SSO_MAX_LENGTH.clientId, required: 'Client ID is required' }),
  clientSecret: z
    .string()
    .max(SSO_MAX_LENGTH.clientSecret, `Must be at most ${SSO_MAX_LENGTH.clientSecret} characters.`)
    .optional(),
  allowedDomains: z
    .array(emailDomain)
    .min(1, 'Allow at least one e-mail domain.')
    .max(SSO_MAX_ALLOWED_DOMAINS, `At most ${SSO_MAX_ALLOWED_DOMAINS} domains.`),
  defaultRole: z.enum(ASSIGNABLE_AUTHORITIES).default(AUTHORITIES.ROLE_ORGANISATION_READONLY_USER),
  required: z.boolean().default(false),
});
/** Type of {@link ssoConnectionInput} after parsing. */
export type SsoConnectionInput = z.infer<typeof ssoConnectionInput>;

/** What the sign-in page learns of an organisation's SSO before sign-in (in the public context). */
export const publicSsoSchema = z.object({ displayName: z.string(), required: z.boolean() });
/** Type of {@link publicSsoSchema}. */
export type PublicSso = z.infer<typeof publicSsoSchema>;

/**
 * Why a single sign-on attempt ended on the sign-in page (`/login?sso={reason}`), and what the page
 * says for each. No reason tells whether an e-mail has an account.
 */
export const SSO_FAILURE_MESSAGES = {
  cancelled: 'Single sign-on was cancelled at your identity provider.',
  expired: 'That sign-in attempt has expired or was already used. Please try again.',
  invalid:
    'Your identity provider’s answer could not be verified. Please try again or contact your administrator.',
  unavailable: 'Your identity provider could not be reached. Please try again later.',
  'not-allowed':
    'Your account is not allowed to sign in to this organisation. Please contact your administrator.',
  'not-configured': 'Single sign-on is not set up for this organisation.',
} as const;
/** One of the keys of {@link SSO_FAILURE_MESSAGES}. */
export type SsoFailureReason = keyof typeof SSO_FAILURE_MESSAGES;

/** The password form's refusal for a member of an organisation that requires single sign-on. */
export function ssoRequiredMessage(displayName: string): string {
  return `Your organisation signs in with ${displayName}. Use “Sign in with ${displayName}”.`;
}
