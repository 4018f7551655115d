import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, emptyTextArray, id, timestamptz, updatedAt } from './columns.ts';
import { organisationId } from './tenant.ts';

/**
 * An organisation's single sign-on with OpenID Connect (docs/adr/0014-single-sign-on.md): at most
 * one per organisation. The client secret is stored encrypted (lib/secret-box.ts), never in clear.
 */
export const ssoConnections = pgTable(
  'sso_connections',
  {
    id: id(),
    organisationId: organisationId(),
    /** Shown on the sign-in button: "Sign in with {displayName}". */
    displayName: text('display_name').notNull(),
    /** The issuer identifier; its discovery document is `{issuer}/.well-known/openid-configuration`. */
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    /** `v1:…` of the secret box; null for a public client (PKCE only). */
    clientSecretEncrypted: text('client_secret_encrypted'),
    /** Lowercase e-mail domains whose people may sign in (and join). */
    allowedDomains: text('allowed_domains').array().notNull().default(emptyTextArray),
    /** The ROLE_* a person signing in for the first time is given. */
    defaultRole: text('default_role').notNull(),
    /** Members who are not organisation admins may not sign in with a password. */
    required: boolean('required').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('sso_connections_organisation_unique').on(t.organisationId)],
);

/**
 * A sign-in started at the identity provider and not yet back: what the callback checks the answer
 * against. Only the SHA-256 of the state is stored; a row is deleted when it is used (one DELETE …
 * RETURNING, so a state works once) and is worthless after `expires_at`.
 */
export const ssoAttempts = pgTable(
  'sso_attempts',
  {
    id: id(),
    organisationId: organisationId(),
    stateHash: text('state_hash').notNull(),
    nonce: text('nonce').notNull(),
    /** The PKCE code verifier (S256), sent with the code to the token endpoint. */
    codeVerifier: text('code_verifier').notNull(),
    rememberMe: boolean('remember_me').notNull().default(false),
    /** Started on the organisation's sub-domain: the sign-in ends there too. */
    viaSubDomain: boolean('via_sub_domain').notNull().default(false),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('sso_attempts_state_hash_unique').on(t.stateHash),
    index('sso_attempts_organisation_expires_idx').on(t.organisationId, t.expiresAt),
  ],
);

export type SsoConnectionRow = typeof ssoConnections.$inferSelect;
export type SsoAttemptRow = typeof ssoAttempts.$inferSelect;
