import { and, asc, count, desc, eq, inArray, notInArray, type SQL } from 'drizzle-orm';
import { FINAL_CHANGE_REQUEST_STATES, type ApprovalSettings, type ChangeRequestState } from '@vexil/core';
import type { Executor } from '../../db/client';
import {
  approvalSettings,
  changeRequestChanges,
  changeRequestEvents,
  changeRequests,
  environments,
  projects,
} from '../../db/schema/index';

/*
 * The change-requests module's tables (docs/adr/0024-change-requests.md): every query is scoped to
 * the organisation.
 */

export type RequestRow = typeof changeRequests.$inferSelect;
export type ChangeRow = typeof changeRequestChanges.$inferSelect;
export type EventRow = typeof changeRequestEvents.$inferSelect;
export type NewEvent = Omit<typeof changeRequestEvents.$inferInsert, 'id' | 'sequence' | 'createdAt'>;
export type NewChange = Omit<typeof changeRequestChanges.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** The environment facts a request is read with. */
export type RequestEnvironment = {
  id: string;
  key: string;
  name: string;
  production: boolean;
  tags: string[];
};

/** A request with its project and environment. */
export type RequestInScope = {
  request: RequestRow;
  project: { id: string; key: string; name: string };
  environment: RequestEnvironment;
};

export async function settingsOf(
  db: Executor,
  organisationId: string,
  environmentId: string,
): Promise<ApprovalSettings | null> {
  const [row] = await db
    .select({
      required: approvalSettings.required,
      minApprovals: approvalSettings.minApprovals,
      allowSelfApproval: approvalSettings.allowSelfApproval,
      resetApprovalsOnChange: approvalSettings.resetApprovalsOnChange,
      autoApply: approvalSettings.autoApply,
    })
    .from(approvalSettings)
    .where(
      and(
        eq(approvalSettings.organisationId, organisationId),
        eq(approvalSettings.environmentId, environmentId),
      ),
    );
  return row ?? null;
}

/** The live environments of a project that ask for change requests, production ones first. */
export async function protectedEnvironmentsOf(
  db: Executor,
  organisationId: string,
  projectId: string,
): Promise<RequestEnvironment[]> {
  return db
    .select({
      id: environments.id,
      key: environments.key,
      name: environments.name,
      production: environments.production,
      tags: environments.tags,
    })
    .from(approvalSettings)
    .innerJoin(environments, eq(environments.id, approvalSettings.environmentId))
    .where(
      and(
        eq(approvalSettings.organisationId, organisationId),
        eq(approvalSettings.required, true),
        eq(environments.projectId, projectId),
        eq(environments.archived, false),
      ),
    )
    .orderBy(desc(environments.production), asc(environments.createdAt));
}

export async function saveSettings(
  db: Executor,
  organisationId: string,
  environmentId: string,
  settings: ApprovalSettings,
): Promise<void> {
  await db
    .insert(approvalSettings)
    .values({ organisationId, environmentId, ...settings })
    .onConflictDoUpdate({
      target: approvalSettings.environmentId,
      set: { ...settings, updatedAt: new Date() },
    });
}

export async function insertRequest(
  db: Executor,
  row: typeof changeRequests.$inferInsert,
): Promise<RequestRow> {
  const [created] = await db.insert(changeRequests).values(row).returning();
  return created!;
}

function inScope(db: Executor) {
  return db
    .select({
      request: changeRequests,
      project: { id: projects.id, key: projects.key, name: projects.name },
      environment: {
        id: environments.id,
        key: environments.key,
        name: environments.name,
        production: environments.production,
        tags: environments.tags,
      },
    })
    .from(changeRequests)
    .innerJoin(projects, eq(projects.id, changeRequests.projectId))
    .innerJoin(environments, eq(environments.id, changeRequests.environmentId));
}

/**
 * A request of a live project and environment, found by its project and id. `forUpdate` locks the
 * request's row until the transaction ends: every move between states is decided under that lock.
 */
export async function findRequest(
  db: Executor,
  organisationId: string,
  projectId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<RequestInScope | null> {
  const query = inScope(db)
    .where(
      and(
        eq(changeRequests.organisationId, organisationId),
        eq(changeRequests.projectId, projectId),
        eq(changeRequests.id, id),
        eq(environments.archived, false),
      ),
    )
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update', { of: changeRequests }) : await query;
  return row ?? null;
}

/** The requests matching `where`, most recently active first. */
export async function listRequests(
  db: Executor,
  where: SQL | undefined,
  page: { offset: number; limit: number },
): Promise<{ rows: RequestInScope[]; total: number }> {
  const condition = and(where, eq(environments.archived, false));
  const [rows, [total]] = await Promise.all([
    inScope(db)
      .where(condition)
      .orderBy(desc(changeRequests.updatedAt), desc(changeRequests.id))
      .offset(page.offset)
      .limit(page.limit),
    db
      .select({ total: count() })
      .from(changeRequests)
      .innerJoin(environments, eq(environments.id, changeRequests.environmentId))
      .where(condition),
  ]);
  return { rows, total: total?.total ?? 0 };
}

/** The condition of a list: the organisation, and optionally a project, state, environment and author. */
export function listCondition(filter: {
  organisationId: string;
  projectId?: string | undefined;
  state?: ChangeRequestState | undefined;
  environmentId?: string | undefined;
  authorId?: string | undefined;
}): SQL | undefined {
  return and(
    eq(changeRequests.organisationId, filter.organisationId),
    filter.projectId ? eq(changeRequests.projectId, filter.projectId) : undefined,
    filter.state ? eq(changeRequests.state, filter.state) : undefined,
    filter.environmentId ? eq(changeRequests.environmentId, filter.environmentId) : undefined,
    filter.authorId ? eq(changeRequests.authorId, filter.authorId) : undefined,
  );
}

/**
 * Where the author's next change of a resource in an environment goes: their open request (a draft,
 * or one in review, approved or suspended) that already changes that resource, else their newest
 * draft there; null when they have neither.
 */
export async function openRequestFor(
  db: Executor,
  organisationId: string,
  environmentId: string,
  authorId: string,
  resource?: { type: ChangeRow['resourceType']; id: string },
): Promise<string | null> {
  const mine = and(
    eq(changeRequests.organisationId, organisationId),
    eq(changeRequests.environmentId, environmentId),
    eq(changeRequests.authorId, authorId),
  );
  if (resource) {
    const [holding] = await db
      .select({ id: changeRequests.id })
      .from(changeRequests)
      .innerJoin(changeRequestChanges, eq(changeRequestChanges.changeRequestId, changeRequests.id))
      .where(
        and(
          mine,
          notInArray(changeRequests.state, [...FINAL_CHANGE_REQUEST_STATES]),
          eq(changeRequestChanges.resourceType, resource.type),
          eq(changeRequestChanges.resourceId, resource.id),
        ),
      )
      .orderBy(desc(changeRequests.updatedAt))
      .limit(1);
    if (holding) return holding.id;
  }
  const [draft] = await db
    .select({ id: changeRequests.id })
    .from(changeRequests)
    .where(and(mine, eq(changeRequests.state, 'draft')))
    .orderBy(desc(changeRequests.updatedAt))
    .limit(1);
  return draft?.id ?? null;
}

export async function updateRequest(
  db: Executor,
  organisationId: string,
  id: string,
  set: Partial<Pick<RequestRow, 'state' | 'round' | 'suspendedReason' | 'title' | 'description'>>,
): Promise<void> {
  await db
    .update(changeRequests)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(changeRequests.organisationId, organisationId), eq(changeRequests.id, id)));
}

export async function changesOf(
  db: Executor,
  organisationId: string,
  requestIds: readonly string[],
): Promise<ChangeRow[]> {
  if (requestIds.length === 0) return [];
  return db
    .select()
    .from(changeRequestChanges)
    .where(
      and(
        eq(changeRequestChanges.organisationId, organisationId),
        inArray(changeRequestChanges.changeRequestId, [...requestIds]),
      ),
    )
    .orderBy(asc(changeRequestChanges.createdAt), asc(changeRequestChanges.id));
}

/** Adds a change, or replaces the request's change of the same resource. */
export async function upsertChange(db: Executor, change: NewChange): Promise<ChangeRow> {
  const [row] = await db
    .insert(changeRequestChanges)
    .values(change)
    .onConflictDoUpdate({
      target: [
        changeRequestChanges.changeRequestId,
        changeRequestChanges.resourceType,
        changeRequestChanges.resourceId,
      ],
      set: {
        kind: change.kind,
        featureId: change.featureId,
        baseVersion: change.baseVersion,
        restoredFrom: change.restoredFrom,
        comment: change.comment,
        proposed: change.proposed,
        updatedAt: new Date(),
      },
    })
    .returning();
  return row!;
}

export async function deleteChange(
  db: Executor,
  organisationId: string,
  requestId: string,
  changeId: string,
): Promise<ChangeRow | null> {
  const [row] = await db
    .delete(changeRequestChanges)
    .where(
      and(
        eq(changeRequestChanges.organisationId, organisationId),
        eq(changeRequestChanges.changeRequestId, requestId),
        eq(changeRequestChanges.id, changeId),
      ),
    )
    .returning();
  return row ?? null;
}

export async function insertEvents(db: Executor, events: readonly NewEvent[]): Promise<void> {
  if (events.length > 0) await db.insert(changeRequestEvents).values([...events]);
}

export async function eventsOf(
  db: Executor,
  organisationId: string,
  requestIds: readonly string[],
): Promise<EventRow[]> {
  if (requestIds.length === 0) return [];
  return db
    .select()
    .from(changeRequestEvents)
    .where(
      and(
        eq(changeRequestEvents.organisationId, organisationId),
        inArray(changeRequestEvents.changeRequestId, [...requestIds]),
      ),
    )
    .orderBy(asc(changeRequestEvents.sequence));
}

/** The approval settings of several environments (those without a row ask for nothing). */
export async function settingsOfMany(
  db: Executor,
  organisationId: string,
  environmentIds: readonly string[],
): Promise<Map<string, ApprovalSettings>> {
  if (environmentIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(approvalSettings)
    .where(
      and(
        eq(approvalSettings.organisationId, organisationId),
        inArray(approvalSettings.environmentId, [...environmentIds]),
      ),
    );
  return new Map(
    rows.map((row) => [
      row.environmentId,
      {
        required: row.required,
        minApprovals: row.minApprovals,
        allowSelfApproval: row.allowSelfApproval,
        resetApprovalsOnChange: row.resetApprovalsOnChange,
        autoApply: row.autoApply,
      },
    ]),
  );
}
