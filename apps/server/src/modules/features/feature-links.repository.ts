import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { bookmarks, featureGoals, featureIssueLinks, goals } from '../../db/schema/index';
import type { FeatureGoal, IssueLinkRecord } from './features.types';

/*
 * What a feature links to: its issues (with the titles the issue tracker told), the goals it counts
 * and the members who bookmarked it.
 */

/** The issue links of the features, oldest first. */
export async function issueLinksOf(
  db: Executor,
  organisationId: string,
  featureIds: string[],
): Promise<IssueLinkRecord[]> {
  if (featureIds.length === 0) return [];
  return db
    .select({
      featureId: featureIssueLinks.featureId,
      key: featureIssueLinks.issueKey,
      title: featureIssueLinks.title,
      url: featureIssueLinks.url,
    })
    .from(featureIssueLinks)
    .where(
      and(
        eq(featureIssueLinks.organisationId, organisationId),
        inArray(featureIssueLinks.featureId, featureIds),
      ),
    )
    .orderBy(asc(featureIssueLinks.createdAt), asc(featureIssueLinks.issueKey));
}

export async function addIssueLinks(db: Executor, organisationId: string, featureId: string, keys: string[]) {
  if (keys.length === 0) return;
  await db
    .insert(featureIssueLinks)
    .values(keys.map((issueKey) => ({ organisationId, featureId, issueKey })))
    .onConflictDoNothing();
}

export async function removeIssueLinks(db: Executor, featureId: string, keys: string[]) {
  if (keys.length === 0) return;
  await db
    .delete(featureIssueLinks)
    .where(and(eq(featureIssueLinks.featureId, featureId), inArray(featureIssueLinks.issueKey, keys)));
}

/** Remembers an issue's title and link on every link of the organisation to it. */
export async function rememberIssue(
  db: Executor,
  organisationId: string,
  integrationId: string,
  issue: { key: string; title: string; url: string },
): Promise<void> {
  await db
    .update(featureIssueLinks)
    .set({ title: issue.title, url: issue.url, integrationId })
    .where(
      and(eq(featureIssueLinks.organisationId, organisationId), eq(featureIssueLinks.issueKey, issue.key)),
    );
}

/** Forgets the titles and links of the organisation's issue links (its connection was removed or moved). */
export async function forgetIssues(db: Executor, organisationId: string): Promise<void> {
  await db
    .update(featureIssueLinks)
    .set({ title: '', url: null, integrationId: null })
    .where(eq(featureIssueLinks.organisationId, organisationId));
}

export async function goalKeysOf(
  db: Executor,
  organisationId: string,
  featureIds: string[],
): Promise<FeatureGoal[]> {
  if (featureIds.length === 0) return [];
  return db
    .select({ featureId: featureGoals.featureId, key: goals.key })
    .from(featureGoals)
    .innerJoin(goals, eq(goals.id, featureGoals.goalId))
    .where(and(eq(featureGoals.organisationId, organisationId), inArray(featureGoals.featureId, featureIds)))
    .orderBy(asc(goals.key));
}

/** Makes the feature's goals exactly `goalIds` (the experiments module's goals.ts makes the ids). */
export async function setGoals(
  db: Executor,
  organisationId: string,
  featureId: string,
  goalIds: string[],
): Promise<void> {
  await db.delete(featureGoals).where(eq(featureGoals.featureId, featureId));
  if (goalIds.length === 0) return;
  await db.insert(featureGoals).values(goalIds.map((goalId) => ({ organisationId, featureId, goalId })));
}

export async function bookmarkedIds(
  db: Executor,
  userId: string,
  featureIds: string[],
): Promise<Set<string>> {
  if (featureIds.length === 0) return new Set();
  const rows = await db
    .select({ featureId: bookmarks.featureId })
    .from(bookmarks)
    .where(and(eq(bookmarks.userId, userId), inArray(bookmarks.featureId, featureIds)));
  return new Set(rows.map((r) => r.featureId));
}

export async function setBookmark(
  db: Executor,
  organisationId: string,
  userId: string,
  featureId: string,
  bookmarked: boolean,
): Promise<void> {
  if (bookmarked) {
    await db.insert(bookmarks).values({ organisationId, userId, featureId }).onConflictDoNothing();
  } else {
    await db.delete(bookmarks).where(and(eq(bookmarks.userId, userId), eq(bookmarks.featureId, featureId)));
  }
}
