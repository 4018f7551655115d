import { and, asc, desc, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  environments,
  features,
  integrationStates,
  integrations,
  organisations,
  projects,
  users,
  type IntegrationConfiguration,
  type IntegrationSecrets,
  type IntegrationType,
} from '../../db/schema/index';
import type {
  ChangeSubject,
  IntegrationMember,
  IntegrationRecord,
  IntegrationStateRecord,
} from './integrations.types';

const integrationColumns = {
  id: integrations.id,
  organisationId: integrations.organisationId,
  type: integrations.type,
  memberId: integrations.memberId,
  configuration: integrations.configuration,
  secrets: integrations.secrets,
  createdAt: integrations.createdAt,
  updatedAt: integrations.updatedAt,
};

/** The organisation's integrations, oldest first, optionally of one type. */
export async function listIntegrations(
  db: Executor,
  organisationId: string,
  type?: IntegrationType,
): Promise<IntegrationRecord[]> {
  return db
    .select(integrationColumns)
    .from(integrations)
    .where(
      and(eq(integrations.organisationId, organisationId), type ? eq(integrations.type, type) : undefined),
    )
    .orderBy(asc(integrations.createdAt), asc(integrations.id));
}

export async function findIntegration(
  db: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<IntegrationRecord | null> {
  const query = db
    .select(integrationColumns)
    .from(integrations)
    .where(and(eq(integrations.organisationId, organisationId), eq(integrations.id, id)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function insertIntegration(
  db: Executor,
  values: {
    organisationId: string;
    type: IntegrationType;
    memberId: string;
    configuration: IntegrationConfiguration;
    secrets: IntegrationSecrets;
    externalId: string | null;
    createdAt: Date;
  },
): Promise<IntegrationRecord> {
  const [row] = await db
    .insert(integrations)
    .values({ ...values, updatedAt: values.createdAt })
    .returning(integrationColumns);
  return row!;
}

export async function updateIntegration(
  db: Executor,
  organisationId: string,
  id: string,
  values: { configuration?: IntegrationConfiguration; secrets?: IntegrationSecrets; updatedAt: Date },
): Promise<IntegrationRecord> {
  const [row] = await db
    .update(integrations)
    .set(values)
    .where(and(eq(integrations.organisationId, organisationId), eq(integrations.id, id)))
    .returning(integrationColumns);
  return row!;
}

export async function deleteIntegration(db: Executor, organisationId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(integrations)
    .where(and(eq(integrations.organisationId, organisationId), eq(integrations.id, id)))
    .returning({ id: integrations.id });
  return rows.length > 0;
}

/** Every integration's secrets, for a key rotation. */
export async function allIntegrationSecrets(
  db: Executor,
): Promise<{ id: string; organisationId: string; secrets: IntegrationSecrets }[]> {
  return db
    .select({
      id: integrations.id,
      organisationId: integrations.organisationId,
      secrets: integrations.secrets,
    })
    .from(integrations);
}

export async function setIntegrationSecrets(db: Executor, id: string, secrets: IntegrationSecrets) {
  await db.update(integrations).set({ secrets }).where(eq(integrations.id, id));
}

export async function organisationDomain(db: Executor, organisationId: string): Promise<string | null> {
  const [row] = await db
    .select({ domain: organisations.domain })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .limit(1);
  return row?.domain ?? null;
}

/** An active member of the organisation, or null. */
export async function memberOf(
  db: Executor,
  organisationId: string,
  userId: string,
): Promise<IntegrationMember | null> {
  const [row] = await db
    .select({ email: users.email, authorities: users.authorities })
    .from(users)
    .where(
      and(
        eq(users.organisationId, organisationId),
        eq(users.id, userId),
        eq(users.activated, true),
        eq(users.archived, false),
      ),
    )
    .limit(1);
  return row ?? null;
}

// One-time states and tokens.

export async function insertState(
  db: Executor,
  values: {
    organisationId: string;
    userId: string;
    kind: 'slack-install' | 'jira-connect';
    nonceHash: string;
    returnTo: string | null;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(integrationStates).values(values);
}

const stateColumns = {
  organisationId: integrationStates.organisationId,
  userId: integrationStates.userId,
  returnTo: integrationStates.returnTo,
  expiresAt: integrationStates.expiresAt,
};

/** The state, without using it up. */
export async function findState(
  db: Executor,
  kind: 'slack-install' | 'jira-connect',
  nonceHash: string,
): Promise<IntegrationStateRecord | null> {
  const [row] = await db
    .select(stateColumns)
    .from(integrationStates)
    .where(and(eq(integrationStates.kind, kind), eq(integrationStates.nonceHash, nonceHash)))
    .limit(1);
  return row ?? null;
}

/**
 * Takes the state in one statement: the row is deleted as it is read, so of two requests with the
 * same state only one finds it.
 */
export async function takeState(
  db: Executor,
  kind: 'slack-install' | 'jira-connect',
  nonceHash: string,
): Promise<IntegrationStateRecord | null> {
  const [row] = await db
    .delete(integrationStates)
    .where(and(eq(integrationStates.kind, kind), eq(integrationStates.nonceHash, nonceHash)))
    .returning(stateColumns);
  return row ?? null;
}

export async function deleteExpiredStates(db: Executor, at: Date): Promise<void> {
  await db.delete(integrationStates).where(lt(integrationStates.expiresAt, at));
}

// What a change's keys stand for.

/**
 * The project, environment and feature a change names (a deleted feature too: the newest of that key),
 * or null when the project is gone.
 */
export async function describeChange(
  db: Executor,
  organisationId: string,
  keys: { projectKey: string; environmentKey?: string | undefined; featureKey?: string | undefined },
): Promise<ChangeSubject | null> {
  const [project] = await db
    .select({
      id: projects.id,
      key: projects.key,
      name: projects.name,
      organisationDomain: organisations.domain,
    })
    .from(projects)
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(
      and(
        eq(projects.organisationId, organisationId),
        eq(projects.key, keys.projectKey),
        eq(projects.archived, false),
      ),
    )
    .limit(1);
  if (!project) return null;
  const environmentRows = await db
    .select({ key: environments.key, name: environments.name })
    .from(environments)
    .where(
      and(
        eq(environments.organisationId, organisationId),
        eq(environments.projectId, project.id),
        eq(environments.archived, false),
      ),
    )
    .orderBy(asc(environments.createdAt), asc(environments.key));
  const feature = keys.featureKey
    ? ((
        await db
          .select({ key: features.key, name: features.name })
          .from(features)
          .where(
            and(
              eq(features.organisationId, organisationId),
              eq(features.projectId, project.id),
              eq(features.key, keys.featureKey),
            ),
          )
          .orderBy(asc(features.archived), desc(features.updatedAt))
          .limit(1)
      )[0] ?? { key: keys.featureKey, name: keys.featureKey })
    : null;
  const environment = keys.environmentKey
    ? (environmentRows.find((e) => e.key === keys.environmentKey) ?? {
        key: keys.environmentKey,
        name: keys.environmentKey,
      })
    : null;
  return {
    organisationDomain: project.organisationDomain,
    project: { id: project.id, key: project.key, name: project.name },
    environment,
    feature,
    firstEnvironmentKey: environmentRows[0]?.key ?? null,
  };
}
