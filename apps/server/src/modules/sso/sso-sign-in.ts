import { timingSafeEqual } from 'node:crypto';
import { MAX_LENGTH, type SsoFailureReason } from '@vexil/core';
import type { Database } from '../../db/client';
import { SecretBoxError, type SecretBox } from '../../lib/secret-box';
import { hashToken } from '../../lib/tokens';
import type { AuthService } from '../auth/auth.service';
import type { MembersService, SsoRefusal } from '../members/members.service';
import {
  OidcError,
  newSignInSecrets,
  type OidcClient,
  type OidcConnection,
  type OidcIdentity,
} from './oidc-client';
import { roleOf, secretContext } from './sso-connection';
import * as repo from './sso.repository';
import type { SsoConnectionRecord } from './sso.types';

/** Where the identity provider sends the browser back to: the one redirect URI of every organisation. */
export const SSO_CALLBACK_PATH = '/api/v1/sso/callback';
export const SSO_START_PATH = '/api/v1/sso/start';
/** How long a sign-in may stay at the identity provider. */
export const SSO_ATTEMPT_MS = 10 * 60 * 1000;

/** Where failures are reported: the reason, the organisation and a code, never a person, token or code. */
export type SsoLogger = { warn: (details: Record<string, unknown>, message: string) => void };

/** Text from an identity provider as a name can hold it: no NUL or lone surrogate, within the length. */
function cleanName(value: string | null): string {
  if (!value) return '';
  return value
    .replaceAll('\u0000', '')
    .trim()
    .slice(0, MAX_LENGTH.name)
    .replace(/\p{Surrogate}/gu, '');
}

function namesOf(identity: OidcIdentity): { firstName: string; lastName: string } {
  const firstName = cleanName(identity.givenName);
  const lastName = cleanName(identity.familyName);
  if (firstName || lastName) return { firstName, lastName };
  const full = cleanName(identity.name);
  const space = full.indexOf(' ');
  return space < 0
    ? { firstName: full, lastName: '' }
    : { firstName: full.slice(0, space), lastName: full.slice(space + 1).trim() };
}

/** A well-formed e-mail address, lowercase, or null. */
function emailOf(identity: OidcIdentity): string | null {
  const email = identity.email?.trim().toLowerCase() ?? '';
  if (email.length > MAX_LENGTH.email || !/^[^\s@]+@[^\s@]+$/.test(email)) return null;
  if (email.includes('\u0000') || /\p{Surrogate}/u.test(email)) return null;
  return email;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** What the log says of each refusal of the members service (no e-mail, no subject). */
const REFUSAL_CODES = {
  archived: 'MEMBER_ARCHIVED',
  removed: 'MEMBER_REMOVED',
  'no-seat': 'NO_SEAT',
  unverified: 'EMAIL_NOT_VERIFIED',
  'bound-elsewhere': 'MEMBER_HAS_OTHER_IDENTITY',
} as const satisfies Record<SsoRefusal, string>;

/** A failure on the way back from the identity provider, answered by a redirect to the sign-in page. */
class SignInFailure extends Error {
  constructor(
    readonly reason: SsoFailureReason,
    readonly code: string,
  ) {
    super(reason);
  }
}

export type SsoStart = {
  /** The organisation the address names (host or `/{organisation}` path), if any. */
  hostOrganisation: string | null;
  /** The organisation the sign-in page names, when the address does not. */
  domain: string | undefined;
  rememberMe: boolean;
  /** The host name the request came to (without port). */
  hostname: string;
  /** `sub-domain` when the sign-in began on the organisation's sub-domain (set by this service's redirect). */
  via: string | undefined;
};

export type SsoCallback = {
  state: string | undefined;
  error: string | undefined;
  /** The whole query string of the provider's answer, as received. */
  query: string;
  /** The state cookie set when the sign-in started in this browser. */
  stateCookie: string | undefined;
};

export type SsoSignIn = ReturnType<typeof createSsoSignIn>;

/**
 * The sign-in round trip of single sign-on (docs/adr/0014-single-sign-on.md): from the sign-in page
 * to the organisation's identity provider and back, ending signed in on the organisation's address
 * or on its sign-in page with the reason.
 */
export function createSsoSignIn(deps: {
  db: Database;
  auth: AuthService;
  members: MembersService;
  secrets: SecretBox;
  oidc: OidcClient;
  /** The dashboard's public address, without a trailing slash: the redirect URI is under it. */
  publicUrl: string;
  /** Organisations' sub-domains are `{domain}.{baseDomain}`. */
  baseDomain: string;
  logger: SsoLogger;
  now: () => Date;
}) {
  const { db, auth, members, secrets, oidc, publicUrl, baseDomain, logger, now } = deps;
  const redirectUri = `${publicUrl}${SSO_CALLBACK_PATH}`;

  function oidcConnection(row: SsoConnectionRecord): OidcConnection {
    return {
      issuer: row.issuer,
      clientId: row.clientId,
      clientSecret: row.clientSecretEncrypted
        ? secrets.decrypt(row.clientSecretEncrypted, secretContext(row.organisationId))
        : null,
      version: `${row.id}:${row.updatedAt.getTime()}`,
    };
  }

  /** The connection with its secret decrypted; a secret stored under another SECRETS_KEY fails the sign-in. */
  function readable(row: SsoConnectionRecord): OidcConnection {
    try {
      return oidcConnection(row);
    } catch (error) {
      if (error instanceof SecretBoxError) throw new SignInFailure('unavailable', 'SECRET_UNREADABLE');
      throw error;
    }
  }

  /** The organisation's own address on its sub-domain, with the public address's scheme and port. */
  function subDomainOrigin(domain: string): string {
    const base = new URL(publicUrl);
    return `${base.protocol}//${domain}.${baseDomain}${base.port ? `:${base.port}` : ''}`;
  }

  /** The sign-in page of the organisation (of none, when unknown), where a failed attempt ends. */
  function loginPage(domain: string | null, viaSubDomain: boolean, reason: SsoFailureReason): string {
    const query = `?sso=${reason}`;
    if (domain && viaSubDomain) return `${subDomainOrigin(domain)}/login${query}`;
    if (domain) return `${publicUrl}/${encodeURIComponent(domain)}/login${query}`;
    return `${publicUrl}/login${query}`;
  }

  /** The dashboard's one-time login page on the organisation's address, which exchanges the token. */
  function tokenLoginPage(domain: string, token: string, rememberMe: boolean, viaSubDomain: boolean): string {
    const query = new URLSearchParams({ domain, rememberMe: String(rememberMe) });
    const origin = viaSubDomain ? subDomainOrigin(domain) : publicUrl;
    return `${origin}/login/${encodeURIComponent(token)}?${query.toString()}`;
  }

  function failed(
    organisation: { id: string; domain: string } | null,
    viaSubDomain: boolean,
    failure: SignInFailure,
  ): { location: string } {
    logger.warn(
      { organisationId: organisation?.id ?? null, reason: failure.reason, code: failure.code },
      'Single sign-on failed',
    );
    return { location: loginPage(organisation?.domain ?? null, viaSubDomain, failure.reason) };
  }

  return {
    /**
     * GET /api/v1/sso/start: sends the browser to the organisation's identity provider, with a new
     * state (kept as a hash, and in a cookie of this browser), nonce and PKCE verifier. A start on
     * the organisation's sub-domain is first sent to the public address, where the provider comes back.
     */
    async start(input: SsoStart): Promise<{ location: string; state?: string }> {
      const domain = (input.hostOrganisation ?? input.domain)?.toLowerCase() || null;
      if (!domain) return failed(null, false, new SignInFailure('not-configured', 'NO_ORGANISATION'));
      const onSubDomain = input.hostname.toLowerCase() === `${domain}.${baseDomain}`;
      const viaSubDomain = onSubDomain || input.via === 'sub-domain';
      // Started on the organisation's sub-domain: the attempt is made at the public address instead,
      // where the provider comes back to and so where the state cookie must be. Once only.
      if (onSubDomain && input.via !== 'sub-domain') {
        const query = new URLSearchParams({
          domain,
          rememberMe: String(input.rememberMe),
          via: 'sub-domain',
        });
        return { location: `${publicUrl}${SSO_START_PATH}?${query.toString()}` };
      }
      const organisation = await repo.findOrganisationByDomain(db, domain);
      if (!organisation) return failed(null, false, new SignInFailure('not-configured', 'NO_ORGANISATION'));
      const { connection } = organisation;
      if (!connection)
        return failed(organisation, viaSubDomain, new SignInFailure('not-configured', 'NO_CONNECTION'));
      const { state, nonce, codeVerifier } = newSignInSecrets();
      let location: URL;
      try {
        location = await oidc.authorizationUrl(organisation.id, readable(connection), {
          redirectUri,
          state,
          nonce,
          codeVerifier,
        });
      } catch (error) {
        if (error instanceof SignInFailure) return failed(organisation, viaSubDomain, error);
        if (!(error instanceof OidcError)) throw error;
        return failed(organisation, viaSubDomain, new SignInFailure('unavailable', error.code));
      }
      const at = now();
      await repo.deleteExpiredAttempts(db, organisation.id, at);
      await repo.insertAttempt(db, {
        organisationId: organisation.id,
        stateHash: hashToken(state),
        nonce,
        codeVerifier,
        rememberMe: input.rememberMe,
        viaSubDomain,
        createdAt: at,
        expiresAt: new Date(at.getTime() + SSO_ATTEMPT_MS),
      });
      return { location: location.href, state };
    },

    /**
     * GET /api/v1/sso/callback: the identity provider's answer. The state is taken once (a replay
     * finds nothing) and must be this browser's; the code is exchanged and the ID token checked; the
     * e-mail must be of an allowed domain. The member is found by the provider's issuer and subject
     * (members service); an e-mail links or joins only when the provider verified it. Then the member
     * signs in through a one-time login token handed to the organisation's address; any failure ends
     * on its sign-in page.
     */
    async callback(input: SsoCallback): Promise<{ location: string }> {
      if (!input.state) return failed(null, false, new SignInFailure('expired', 'NO_STATE'));
      if (!input.stateCookie || !sameText(input.stateCookie, input.state))
        return failed(null, false, new SignInFailure('expired', 'OTHER_BROWSER'));
      const attempt = await repo.takeAttempt(db, hashToken(input.state));
      if (!attempt) return failed(null, false, new SignInFailure('expired', 'UNKNOWN_STATE'));
      const organisation = { id: attempt.organisationId, domain: attempt.organisationDomain };
      const fail = (reason: SsoFailureReason, code: string) =>
        failed(organisation, attempt.viaSubDomain, new SignInFailure(reason, code));
      if (attempt.expiresAt.getTime() <= now().getTime()) return fail('expired', 'EXPIRED_STATE');
      const connection = await repo.findConnection(db, organisation.id);
      if (!connection) return fail('not-configured', 'NO_CONNECTION');
      if (input.error) {
        if (input.error === 'access_denied') return fail('cancelled', 'ACCESS_DENIED');
        const busy = input.error === 'temporarily_unavailable' || input.error === 'server_error';
        return fail(busy ? 'unavailable' : 'invalid', `PROVIDER_${input.error.slice(0, 40).toUpperCase()}`);
      }
      let identity: OidcIdentity;
      try {
        identity = await oidc.identify(
          organisation.id,
          readable(connection),
          new URL(`${redirectUri}?${input.query}`),
          { state: input.state, nonce: attempt.nonce, codeVerifier: attempt.codeVerifier },
        );
      } catch (error) {
        if (error instanceof SignInFailure) return fail(error.reason, error.code);
        if (!(error instanceof OidcError)) throw error;
        return fail(error.kind, error.code);
      }
      const email = emailOf(identity);
      if (!email) return fail('not-allowed', 'NO_EMAIL');
      const emailDomain = email.slice(email.lastIndexOf('@') + 1);
      if (!connection.allowedDomains.includes(emailDomain)) return fail('not-allowed', 'DOMAIN_NOT_ALLOWED');
      // Matched by (issuer, subject); the e-mail only links a first sign-in when the provider verified it.
      const member = await members.memberForSingleSignOn(
        organisation.id,
        {
          issuer: identity.issuer,
          subject: identity.subject,
          email,
          emailVerified: identity.emailVerified,
          ...namesOf(identity),
          via: connection.displayName,
        },
        roleOf(connection.defaultRole),
      );
      if ('refused' in member) return fail('not-allowed', REFUSAL_CODES[member.refused]);
      const token = await auth.createLoginToken(organisation.id, member.userId, {
        via: connection.displayName,
      });
      return {
        location: tokenLoginPage(organisation.domain, token, attempt.rememberMe, attempt.viaSubDomain),
      };
    },
  };
}
