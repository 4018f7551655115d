import type { CountedLimitKey } from '@vexil/core';
import { and, count, countDistinct, eq, gte, sum } from 'drizzle-orm';
import { readTogether, type Executor } from '../../db/client';
import {
  environments,
  features,
  impressionCounters,
  projects,
  targetUsers,
  users,
} from '../../db/schema/index';
import type { UsageCounts } from './billing.types';

// Read joins over the tables of team, projects, environments, features, targeting and statistics
// (docs/adr/0009-module-layout.md allows them in a repository): the counts the limit checks of those
// modules compare with.

const firstCount = async (query: PromiseLike<{ n: unknown }[]>) => Number((await query)[0]?.n ?? 0);

/** Live projects. */
export function countProjects(db: Executor, organisationId: string): Promise<number> {
  return firstCount(
    db
      .select({ n: count() })
      .from(projects)
      .where(and(eq(projects.organisationId, organisationId), eq(projects.archived, false))),
  );
}

/** Live environments of live projects (maxEnvironments counts them across projects). */
export function countEnvironments(db: Executor, organisationId: string): Promise<number> {
  return firstCount(
    db
      .select({ n: count() })
      .from(environments)
      .innerJoin(projects, eq(projects.id, environments.projectId))
      .where(
        and(
          eq(environments.organisationId, organisationId),
          eq(environments.archived, false),
          eq(projects.archived, false),
        ),
      ),
  );
}

/** Live features of live projects. */
export function countFeatures(db: Executor, organisationId: string): Promise<number> {
  return firstCount(
    db
      .select({ n: count() })
      .from(features)
      .innerJoin(projects, eq(projects.id, features.projectId))
      .where(
        and(
          eq(features.organisationId, organisationId),
          eq(features.archived, false),
          eq(projects.archived, false),
        ),
      ),
  );
}

/** What `key` counts now: the one definition both the limit checks and the usage read. */
export function countUsed(db: Executor, organisationId: string, key: CountedLimitKey): Promise<number> {
  switch (key) {
    case 'maxProjects':
      return countProjects(db, organisationId);
    case 'maxEnvironments':
      return countEnvironments(db, organisationId);
    case 'maxFeatures':
      return countFeatures(db, organisationId);
    case 'maxOrganisationUsers':
      return countSeats(db, organisationId);
  }
}

/**
 * What the organisation uses: seats (members and pending invitations: every user not removed), live
 * projects, live environments of live projects, live features of live projects, and the application
 * users seen and impressions counted from `since` (the first day of the month, UTC).
 */
export async function usage(db: Executor, organisationId: string, since: Date): Promise<UsageCounts> {
  const sinceDay = since.toISOString().slice(0, 10);
  const [seats, liveProjects, liveEnvironments, liveFeatures, applicationUsers, impressions] =
    await readTogether<[number, number, number, number, number, number]>(db, [
      () => countSeats(db, organisationId),
      () => countProjects(db, organisationId),
      () => countEnvironments(db, organisationId),
      () => countFeatures(db, organisationId),
      () =>
        firstCount(
          db
            .select({ n: countDistinct(targetUsers.userKey) })
            .from(targetUsers)
            .where(and(eq(targetUsers.organisationId, organisationId), gte(targetUsers.lastSeenAt, since))),
        ),
      () =>
        firstCount(
          db
            .select({ n: sum(impressionCounters.count) })
            .from(impressionCounters)
            .where(
              and(
                eq(impressionCounters.organisationId, organisationId),
                gte(impressionCounters.day, sinceDay),
              ),
            ),
        ),
    ]);
  return {
    seats,
    projects: liveProjects,
    environments: liveEnvironments,
    features: liveFeatures,
    applicationUniqueUsers: applicationUsers,
    impressions,
  };
}

/** Members and pending invitations: the seats a provider bills. */
export async function countSeats(db: Executor, organisationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.organisationId, organisationId), eq(users.archived, false)));
  return Number(row?.n ?? 0);
}

/** Members who accepted their invitation and were not removed: the seats taken for good. */
export async function countActiveMembers(db: Executor, organisationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(
      and(eq(users.organisationId, organisationId), eq(users.archived, false), eq(users.activated, true)),
    );
  return Number(row?.n ?? 0);
}
