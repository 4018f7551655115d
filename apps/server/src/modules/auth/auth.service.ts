import { DAY_MS, LOGIN_FAILED_MESSAGE, REMEMBER_ME_DAYS, type RoleGrant } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { createSharedCounters } from '../../db/counters';
import { BadRequestError, ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../errors';
import type { ChangeEvent, ChangeEvents } from '../../lib/change-events';
import { verifyDummyPassword, verifyPassword, type HashCost } from '../../lib/passwords';
import { hashToken, newSecretToken, TOKEN_PREFIX } from '../../lib/tokens';
import type { AuditService } from '../audit/audit.service';
import * as repo from './auth.repository';
import type { OneTimeTokenPurpose, TokenOwner } from './auth.types';
import { createLoginThrottle, loginThrottleKey } from './login-throttle';
import { recordsFailures, signInAudit } from './sign-in-audit';

export const TOO_MANY_ATTEMPTS = 'Too many failed login attempts. Please wait and try again later.';
export const INVALID_LOGIN_LINK = 'This login link is invalid or has expired.';
const REMEMBER_ME_MS = REMEMBER_ME_DAYS * DAY_MS;
const SESSION_MS = DAY_MS;
const ONE_TIME_LOGIN_MS = 15 * 60 * 1000;
/** Writing last-used on every request would turn reads into writes; a minute's precision is enough. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export type Principal = {
  kind: 'session';
  sessionId: string;
  userId: string;
  organisationId: string;
  organisationDomain: string;
  email: string;
  authorities: string[];
  /**
   * The grants of the custom roles the member holds, loaded with each request (plugins/auth.ts): they
   * add to the rights of the authorities (docs/product.md §6).
   */
  grants?: RoleGrant[];
  /** Set when the request came with an access token (the API) rather than a session (the dashboard). */
  via?: 'access-token';
};

export type ClientInfo = { userAgent: string | null; ip: string | null };
export type NewSession = { token: string; rememberMe: boolean; maxAgeSeconds: number | undefined };

export type AuthService = ReturnType<typeof createAuthService>;

/**
 * Whether a member may sign in with a password: the refusal's words, or null. Single sign-on supplies
 * it (an organisation that requires it keeps passwords for its organisation admins only).
 */
export type PasswordSignInRule = (member: {
  organisationId: string;
  authorities: string[];
}) => Promise<string | null>;

export function createAuthService(deps: {
  db: Database;
  hashCost: HashCost;
  now?: () => Date;
  passwordSignInRule?: PasswordSignInRule;
  /** Where sign-ins and runs of failed ones are recorded (modules/audit; sign-in-audit.ts). */
  audit?: Pick<AuditService, 'record'>;
  /** Where a signed-out session is announced, so its live dashboards close (modules/live). */
  events?: Pick<ChangeEvents, 'publish' | 'within'>;
}) {
  const { db, hashCost } = deps;
  const now = deps.now ?? (() => new Date());
  const throttle = createLoginThrottle(createSharedCounters(db, now));

  async function startSession(
    organisationId: string,
    userId: string,
    rememberMe: boolean,
    client: ClientInfo,
  ): Promise<NewSession> {
    const token = newSecretToken(TOKEN_PREFIX.session);
    const lifetime = rememberMe ? REMEMBER_ME_MS : SESSION_MS;
    await repo.insertSession(db, {
      organisationId,
      userId,
      tokenHash: hashToken(token),
      rememberMe,
      expiresAt: new Date(now().getTime() + lifetime),
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      ip: client.ip,
    });
    return { token, rememberMe, maxAgeSeconds: rememberMe ? REMEMBER_ME_MS / 1000 : undefined };
  }

  /** Resolves a presented session token to its principal, or null when it is unknown, revoked or expired. */
  async function resolveSession(token: string): Promise<Principal | null> {
    if (!token.startsWith(TOKEN_PREFIX.session) || token.length > 200) return null;
    const at = now();
    const row = await repo.findActiveSession(db, hashToken(token), at);
    if (!row) return null;
    if (at.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS)
      await repo.touchSession(db, row.sessionId, at);
    return {
      kind: 'session',
      sessionId: row.sessionId,
      userId: row.userId,
      organisationId: row.organisationId,
      organisationDomain: row.organisationDomain,
      email: row.email,
      authorities: row.authorities,
    };
  }

  return {
    /** The organisation an address (its domain) names, or null: what the sign-in page may show. */
    organisationByDomain(domain: string) {
      return repo.findOrganisationByDomain(db, domain);
    },

    /**
     * Password login against one organisation: the one the request's host or path names, else the
     * body's. Every failure reads the same, whether or not the account exists, and so does the wait
     * imposed after repeated failures.
     */
    async login(
      input: {
        username: string;
        password: string;
        domain?: string | undefined;
        /** The organisation named by the host or `/{org}/api` path; a body domain cannot override it. */
        hostOrganisation?: string | null | undefined;
        rememberMe?: boolean | undefined;
      },
      client: ClientInfo,
    ): Promise<NewSession> {
      const { hostOrganisation } = input;
      const domain = hostOrganisation ?? input.domain;
      if (!domain)
        throw new BadRequestError('Which organisation? Sign in from your organisation address.', [
          { field: 'domain', message: 'Organisation domain is required' },
        ]);
      const key = loginThrottleKey(domain, input.username, client.ip);
      const wait = await throttle.secondsToWait(key);
      if (wait > 0) throw new TooManyRequestsError(TOO_MANY_ATTEMPTS, wait);
      const foreign = !!hostOrganisation && !!input.domain && input.domain.toLowerCase() !== hostOrganisation;
      const organisation = foreign ? null : await repo.findOrganisationByDomain(db, domain);
      const user = organisation
        ? await repo.findLoginCredentials(db, organisation.id, input.username.trim())
        : null;
      const valid =
        user?.passwordHash && user.activated
          ? await verifyPassword(input.password, user.passwordHash)
          : await verifyDummyPassword(input.password, hashCost).then(() => false);
      if (!user || !valid) {
        const failures = await throttle.failed(key);
        if (organisation && recordsFailures(failures))
          await deps.audit?.record(
            db,
            { organisationId: organisation.id },
            signInAudit({
              kind: 'sign_in.failed',
              typed: input.username,
              failures,
              userId: user?.id ?? null,
              ip: client.ip,
            }),
          );
        throw new UnauthorizedError(LOGIN_FAILED_MESSAGE);
      }
      await throttle.succeeded(key);
      // Asked only once the password is right, so the refusal tells nothing to who does not know it.
      const refusal = await deps.passwordSignInRule?.(user);
      if (refusal) throw new ForbiddenError(refusal);
      const session = await startSession(user.organisationId, user.id, input.rememberMe ?? false, client);
      await deps.audit?.record(
        db,
        { organisationId: user.organisationId, userId: user.id },
        signInAudit({ kind: 'sign_in.password', user: { id: user.id, email: user.email } }),
      );
      return session;
    },

    /** Exchanges a one-time login token (sign-up, invitation) for a session; the token works once. */
    async loginWithToken(
      input: {
        token: string;
        domain?: string | undefined;
        /** As for `login`: the host's organisation wins and a body naming another is refused. */
        hostOrganisation?: string | null | undefined;
        rememberMe?: boolean | undefined;
      },
      client: ClientInfo,
    ): Promise<NewSession> {
      const { hostOrganisation } = input;
      if (hostOrganisation && input.domain && input.domain.toLowerCase() !== hostOrganisation) {
        throw new UnauthorizedError(INVALID_LOGIN_LINK);
      }
      const domain = hostOrganisation ?? input.domain;
      const owner = await repo.consumeOneTimeToken(db, hashToken(input.token), 'login', now());
      if (!owner) throw new UnauthorizedError(INVALID_LOGIN_LINK);
      if (domain) {
        const organisation = await repo.findOrganisationByDomain(db, domain);
        if (!organisation || organisation.id !== owner.organisationId) {
          throw new UnauthorizedError(INVALID_LOGIN_LINK);
        }
      }
      const user = await repo.findUserForSession(db, owner.userId, owner.organisationId);
      if (!user || !user.activated || user.archived) throw new UnauthorizedError(INVALID_LOGIN_LINK);
      const session = await startSession(
        owner.organisationId,
        owner.userId,
        input.rememberMe ?? false,
        client,
      );
      await deps.audit?.record(
        db,
        { organisationId: owner.organisationId, userId: owner.userId },
        signInAudit({
          kind: 'sign_in.link',
          user: { id: user.id, email: user.email },
          via: owner.via ?? null,
        }),
      );
      return session;
    },

    /** A one-time login token; `via` names the single sign-on provider it comes from. */
    async createLoginToken(
      organisationId: string,
      userId: string,
      options: { via?: string } = {},
    ): Promise<string> {
      const token = newSecretToken(TOKEN_PREFIX.oneTime);
      await repo.insertOneTimeToken(db, {
        organisationId,
        userId,
        purpose: 'login',
        tokenHash: hashToken(token),
        via: options.via ?? null,
        expiresAt: new Date(now().getTime() + ONE_TIME_LOGIN_MS),
      });
      return token;
    },

    /** Revokes the session a token names, if it is live; unknown tokens are ignored. */
    async logout(token: string): Promise<void> {
      const principal = await resolveSession(token);
      if (!principal) return;
      const ended = await db.transaction(async (tx) => {
        await repo.revokeSession(tx, principal.sessionId, now());
        return deps.events?.within(tx, {
          type: 'access.changed',
          organisationId: principal.organisationId,
          sessionId: principal.sessionId,
        });
      });
      if (ended) deps.events?.publish(ended);
    },

    /**
     * The live dashboards' check (modules/live): which of these sessions are still live, by id, with
     * their member's authorities as stored now.
     */
    async liveSessions(
      sessionIds: readonly string[],
    ): Promise<Map<string, { userId: string; authorities: string[] }>> {
      const rows = await repo.findLiveSessions(db, sessionIds, now());
      return new Map(rows.map(({ sessionId, ...rest }) => [sessionId, rest]));
    },

    /**
     * Ends every session of a member at once ("Sign out everywhere", removal from the organisation):
     * the next request with any of them is refused with 401. Pass the caller's transaction to end
     * them together with its change (or `db`). Answers how many sessions were live. In the same
     * transaction, call {@link accessChangedWithin} so that the member's open dashboards close.
     */
    revokeAllSessions(executor: Executor, organisationId: string, userId: string): Promise<number> {
      return repo.revokeAllSessions(executor, organisationId, userId, now());
    },

    /**
     * Inside the transaction of a change to a member's sessions or rights (sessions ended, removed,
     * role changed): their live dashboards, on every instance, stop being fed until their access is
     * checked again. The other instances hear of it with the commit (ChangeEvents.within); pass the
     * answer to {@link accessChanged} once it has committed, for this one.
     */
    async accessChangedWithin(executor: Executor, organisationId: string, userId: string) {
      const event: ChangeEvent = { type: 'access.changed', organisationId, userId };
      return (await deps.events?.within(executor, event)) ?? event;
    },

    /** After the commit of {@link accessChangedWithin}'s transaction: this instance's dashboards. */
    accessChanged(event: ChangeEvent): void {
      deps.events?.publish(event);
    },

    /**
     * Stores a one-time token of `purpose` for a member (hashed: the token itself is only in the link
     * it is mailed in), to be spent with {@link spendOneTimeToken}.
     */
    storeOneTimeToken(
      executor: Executor,
      owner: TokenOwner,
      purpose: OneTimeTokenPurpose,
      token: string,
      times: { createdAt: Date; expiresAt: Date },
    ): Promise<void> {
      return repo.insertOneTimeToken(executor, { ...owner, purpose, tokenHash: hashToken(token), ...times });
    },

    /** Marks a live token of `purpose` used and answers whose it was; null when unknown, used or expired. */
    spendOneTimeToken(
      executor: Executor,
      token: string,
      purpose: OneTimeTokenPurpose,
      at: Date,
    ): Promise<TokenOwner | null> {
      return repo.consumeOneTimeToken(executor, hashToken(token), purpose, at);
    },

    /** Every live token of `purpose` of the member stops working (a password reset retires the others). */
    retireOneTimeTokens(
      executor: Executor,
      owner: { organisationId: string; userId: string },
      purpose: OneTimeTokenPurpose,
      at: Date,
    ): Promise<void> {
      return repo.retireOneTimeTokens(executor, owner, purpose, at);
    },

    resolveSession,
  };
}
