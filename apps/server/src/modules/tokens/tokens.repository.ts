import { and, count, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { organisations, personalAccessTokens, users } from '../../db/schema/index';
import type { ActiveAccessToken, NewAccessTokenRecord, TokenRecord } from './tokens.types';

const recordColumns = {
  id: personalAccessTokens.id,
  name: personalAccessTokens.name,
  tokenPrefix: personalAccessTokens.tokenPrefix,
  tokenLastFour: personalAccessTokens.tokenLastFour,
  createdAt: personalAccessTokens.createdAt,
  expiresAt: personalAccessTokens.expiresAt,
  lastUsedAt: personalAccessTokens.lastUsedAt,
};

/** A member's live (not deleted) tokens, newest first, expired ones included. */
export async function listOwn(db: Executor, organisationId: string, userId: string): Promise<TokenRecord[]> {
  return db
    .select(recordColumns)
    .from(personalAccessTokens)
    .where(
      and(
        eq(personalAccessTokens.organisationId, organisationId),
        eq(personalAccessTokens.userId, userId),
        eq(personalAccessTokens.archived, false),
      ),
    )
    .orderBy(desc(personalAccessTokens.createdAt), desc(personalAccessTokens.id));
}

/** How many live tokens a member holds. */
export async function countOwn(db: Executor, organisationId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(personalAccessTokens)
    .where(
      and(
        eq(personalAccessTokens.organisationId, organisationId),
        eq(personalAccessTokens.userId, userId),
        eq(personalAccessTokens.archived, false),
      ),
    );
  return row?.n ?? 0;
}

/**
 * Locks the member's row until the transaction ends, so that two concurrent creations cannot both
 * pass the count of their tokens.
 */
export async function lockOwner(tx: Executor, organisationId: string, userId: string): Promise<void> {
  await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organisationId, organisationId)))
    .for('update');
}

export async function insert(tx: Executor, values: NewAccessTokenRecord): Promise<TokenRecord> {
  const [row] = await tx.insert(personalAccessTokens).values(values).returning(recordColumns);
  return row!;
}

/** One live token of the member, or null: another member's or organisation's token is not found. */
export async function findOwn(
  tx: Executor,
  organisationId: string,
  userId: string,
  id: string,
): Promise<TokenRecord | null> {
  const [row] = await tx
    .select(recordColumns)
    .from(personalAccessTokens)
    .where(
      and(
        eq(personalAccessTokens.id, id),
        eq(personalAccessTokens.organisationId, organisationId),
        eq(personalAccessTokens.userId, userId),
        eq(personalAccessTokens.archived, false),
      ),
    )
    .limit(1)
    .for('update');
  return row ?? null;
}

export async function archive(tx: Executor, id: string, at: Date): Promise<void> {
  await tx
    .update(personalAccessTokens)
    .set({ archived: true, archivedAt: at })
    .where(eq(personalAccessTokens.id, id));
}

/**
 * The token with this hash, found through the unique hash index, if it is live (not deleted, not
 * expired) and its owner is an activated, live member: what a request's principal is built from.
 */
export async function findActive(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<ActiveAccessToken | null> {
  const [row] = await db
    .select({
      tokenId: personalAccessTokens.id,
      userId: users.id,
      organisationId: organisations.id,
      organisationDomain: organisations.domain,
      email: users.email,
      authorities: users.authorities,
      name: personalAccessTokens.name,
      lastUsedAt: personalAccessTokens.lastUsedAt,
    })
    .from(personalAccessTokens)
    .innerJoin(
      users,
      and(
        eq(users.id, personalAccessTokens.userId),
        eq(users.organisationId, personalAccessTokens.organisationId),
      ),
    )
    .innerJoin(organisations, eq(organisations.id, personalAccessTokens.organisationId))
    .where(
      and(
        eq(personalAccessTokens.tokenHash, tokenHash),
        eq(personalAccessTokens.archived, false),
        or(isNull(personalAccessTokens.expiresAt), gt(personalAccessTokens.expiresAt, now)),
        eq(users.activated, true),
        eq(users.archived, false),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Records a use, unless one was recorded since `staleBefore`: of requests arriving together, one
 * writes and the others find the row fresh. Answers whether this call wrote it.
 */
export async function touch(db: Executor, id: string, at: Date, staleBefore: Date): Promise<boolean> {
  const rows = await db
    .update(personalAccessTokens)
    .set({ lastUsedAt: at })
    .where(
      and(
        eq(personalAccessTokens.id, id),
        or(isNull(personalAccessTokens.lastUsedAt), lt(personalAccessTokens.lastUsedAt, staleBefore)),
      ),
    )
    .returning({ id: personalAccessTokens.id });
  return rows.length > 0;
}
