import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { oneTimeTokens, organisations, sessions, users } from '../../db/schema/index';
import type {
  ActiveSession,
  LoginCredentials,
  MemberState,
  PublicOrganisation,
  TokenOwner,
} from './auth.types';

export async function findOrganisationByDomain(
  db: Executor,
  domain: string,
): Promise<PublicOrganisation | null> {
  const [row] = await db
    .select({ id: organisations.id, name: organisations.name, domain: organisations.domain })
    .from(organisations)
    .where(eq(organisations.domain, domain.toLowerCase()))
    .limit(1);
  return row ?? null;
}

/** The sign-in credentials of a live member by e-mail: the only module query that reads the password hash. */
export async function findLoginCredentials(
  db: Executor,
  organisationId: string,
  email: string,
): Promise<LoginCredentials | null> {
  const [row] = await db
    .select({
      id: users.id,
      organisationId: users.organisationId,
      email: users.email,
      passwordHash: users.passwordHash,
      activated: users.activated,
      authorities: users.authorities,
    })
    .from(users)
    .where(
      and(
        eq(users.organisationId, organisationId),
        eq(users.email, email.toLowerCase()),
        eq(users.archived, false),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function insertSession(
  db: Executor,
  values: {
    organisationId: string;
    userId: string;
    tokenHash: string;
    rememberMe: boolean;
    expiresAt: Date;
    userAgent: string | null;
    ip: string | null;
  },
): Promise<void> {
  await db.insert(sessions).values(values);
}

export async function findActiveSession(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<ActiveSession | null> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      userId: users.id,
      organisationId: organisations.id,
      organisationDomain: organisations.domain,
      email: users.email,
      authorities: users.authorities,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .innerJoin(users, and(eq(users.id, sessions.userId), eq(users.organisationId, sessions.organisationId)))
    .innerJoin(organisations, eq(organisations.id, sessions.organisationId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        eq(users.activated, true),
        eq(users.archived, false),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Which of these sessions are still live (not revoked, not expired, their member activated and not
 * removed), with their member's authorities as stored now: one query for every open dashboard.
 */
export async function findLiveSessions(
  db: Executor,
  sessionIds: readonly string[],
  now: Date,
): Promise<{ sessionId: string; userId: string; authorities: string[] }[]> {
  if (sessionIds.length === 0) return [];
  return db
    .select({ sessionId: sessions.id, userId: users.id, authorities: users.authorities })
    .from(sessions)
    .innerJoin(users, and(eq(users.id, sessions.userId), eq(users.organisationId, sessions.organisationId)))
    .where(
      and(
        inArray(sessions.id, [...sessionIds]),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        eq(users.activated, true),
        eq(users.archived, false),
      ),
    );
}

export async function touchSession(db: Executor, sessionId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, sessionId));
}

export async function revokeSession(db: Executor, sessionId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
}

/** Revokes every live session of a member; answers how many there were. */
export async function revokeAllSessions(
  db: Executor,
  organisationId: string,
  userId: string,
  now: Date,
): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.organisationId, organisationId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}

export async function insertOneTimeToken(
  db: Executor,
  values: {
    organisationId: string;
    userId: string;
    purpose: string;
    tokenHash: string;
    /** A single sign-on login token: the provider's display name. */
    via?: string | null;
    expiresAt: Date;
    createdAt?: Date;
  },
): Promise<void> {
  await db.insert(oneTimeTokens).values(values);
}

/** Marks the token used and returns its owner, in one statement so a token can be used once only. */
export async function consumeOneTimeToken(
  db: Executor,
  tokenHash: string,
  purpose: string,
  now: Date,
): Promise<TokenOwner | null> {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, tokenHash),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    )
    .returning({
      userId: oneTimeTokens.userId,
      organisationId: oneTimeTokens.organisationId,
      via: oneTimeTokens.via,
    });
  return row ?? null;
}

/** Every live token of `purpose` of the member stops working. */
export async function retireOneTimeTokens(
  db: Executor,
  owner: { organisationId: string; userId: string },
  purpose: string,
  at: Date,
): Promise<void> {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: at })
    .where(
      and(
        eq(oneTimeTokens.organisationId, owner.organisationId),
        eq(oneTimeTokens.userId, owner.userId),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
      ),
    );
}

export async function findUserForSession(
  db: Executor,
  userId: string,
  organisationId: string,
): Promise<MemberState | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email, activated: users.activated, archived: users.archived })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organisationId, organisationId)))
    .limit(1);
  return row ?? null;
}
