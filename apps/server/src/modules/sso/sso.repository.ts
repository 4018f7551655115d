import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { organisations, ssoAttempts, ssoConnections } from '../../db/schema/index';
import type {
  SsoAttemptRecord,
  SsoConnectionRecord,
  SsoConnectionValues,
  SsoOrganisation,
} from './sso.types';

const connectionColumns = {
  id: ssoConnections.id,
  organisationId: ssoConnections.organisationId,
  displayName: ssoConnections.displayName,
  issuer: ssoConnections.issuer,
  clientId: ssoConnections.clientId,
  clientSecretEncrypted: ssoConnections.clientSecretEncrypted,
  allowedDomains: ssoConnections.allowedDomains,
  defaultRole: ssoConnections.defaultRole,
  required: ssoConnections.required,
  updatedAt: ssoConnections.updatedAt,
};

export async function findConnection(
  db: Executor,
  organisationId: string,
  options: { forUpdate?: boolean } = {},
): Promise<SsoConnectionRecord | null> {
  const query = db
    .select(connectionColumns)
    .from(ssoConnections)
    .where(eq(ssoConnections.organisationId, organisationId))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** The organisation an address names (its domain), with its connection: what a sign-in starts from. */
export async function findOrganisationByDomain(
  db: Executor,
  domain: string,
): Promise<SsoOrganisation | null> {
  const [row] = await db
    .select({ id: organisations.id, domain: organisations.domain, connection: connectionColumns })
    .from(organisations)
    .leftJoin(ssoConnections, eq(ssoConnections.organisationId, organisations.id))
    .where(eq(organisations.domain, domain.toLowerCase()))
    .limit(1);
  if (!row) return null;
  return { id: row.id, domain: row.domain, connection: row.connection?.id ? row.connection : null };
}

/** Creates the organisation's connection or replaces its settings (one per organisation). */
export async function upsertConnection(
  db: Executor,
  organisationId: string,
  values: SsoConnectionValues,
  at: Date,
): Promise<SsoConnectionRecord> {
  const [row] = await db
    .insert(ssoConnections)
    .values({ organisationId, ...values, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: ssoConnections.organisationId,
      set: { ...values, updatedAt: at },
    })
    .returning(connectionColumns);
  return row!;
}

export async function deleteConnection(db: Executor, organisationId: string): Promise<boolean> {
  const rows = await db
    .delete(ssoConnections)
    .where(eq(ssoConnections.organisationId, organisationId))
    .returning({ id: ssoConnections.id });
  return rows.length > 0;
}

/** Sign-ins under way are worthless once the connection is gone. */
export async function deleteAttempts(db: Executor, organisationId: string): Promise<void> {
  await db.delete(ssoAttempts).where(eq(ssoAttempts.organisationId, organisationId));
}

export async function insertAttempt(
  db: Executor,
  values: {
    organisationId: string;
    stateHash: string;
    nonce: string;
    codeVerifier: string;
    rememberMe: boolean;
    viaSubDomain: boolean;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(ssoAttempts).values(values);
}

/** Forgets the organisation's sign-ins that expired before `at`. */
export async function deleteExpiredAttempts(db: Executor, organisationId: string, at: Date): Promise<void> {
  await db
    .delete(ssoAttempts)
    .where(and(eq(ssoAttempts.organisationId, organisationId), lt(ssoAttempts.expiresAt, at)));
}

/**
 * Takes the sign-in a state names, in one statement: the row is deleted as it is read, so of two
 * callbacks with the same state only one finds it. Expired rows are taken too (the caller refuses
 * them), so that the answer can still go to the right organisation's sign-in page.
 */
export async function takeAttempt(db: Executor, stateHash: string): Promise<SsoAttemptRecord | null> {
  const [row] = await db.delete(ssoAttempts).where(eq(ssoAttempts.stateHash, stateHash)).returning({
    organisationId: ssoAttempts.organisationId,
    nonce: ssoAttempts.nonce,
    codeVerifier: ssoAttempts.codeVerifier,
    rememberMe: ssoAttempts.rememberMe,
    viaSubDomain: ssoAttempts.viaSubDomain,
    expiresAt: ssoAttempts.expiresAt,
  });
  if (!row) return null;
  const [organisation] = await db
    .select({ domain: organisations.domain })
    .from(organisations)
    .where(eq(organisations.id, row.organisationId))
    .limit(1);
  return organisation ? { ...row, organisationDomain: organisation.domain } : null;
}

/** Every connection's encrypted client secret, for a SECRETS_KEY rotation. */
export async function allClientSecrets(
  db: Executor,
): Promise<{ organisationId: string; clientSecretEncrypted: string | null }[]> {
  return db
    .select({
      organisationId: ssoConnections.organisationId,
      clientSecretEncrypted: ssoConnections.clientSecretEncrypted,
    })
    .from(ssoConnections);
}

export async function setClientSecret(db: Executor, organisationId: string, clientSecretEncrypted: string) {
  await db
    .update(ssoConnections)
    .set({ clientSecretEncrypted })
    .where(eq(ssoConnections.organisationId, organisationId));
}
