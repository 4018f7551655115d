import {
  AUDIT_NOT_ON_PLAN,
  AUDIT_PAGE_SIZE,
  denialOf,
  targetingChangedMessage,
  type AuditAction,
  type AuditItem,
  type AuditPage,
  type AuditQuery,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { ForbiddenError, StaleWriteError } from '../../errors';
import * as repo from './audit.repository';

/** What one write tells the audit log. The description is markdown; escape user text with core's escapeMarkdown. */
export type AuditEntry = {
  action: AuditAction;
  resourceType: string;
  resourceId?: string | null;
  projectKey?: string | null;
  environmentKey?: string | null;
  featureKey?: string | null;
  title: string;
  description: string;
  data?: Record<string, unknown>;
};

/** Who made a change: a signed-in user (a Principal fits), or the system/SDK API (no user). */
export type AuditActor = { organisationId: string; userId?: string | null };

/** Core's sentence, also read here by the billing tests. */
export { AUDIT_NOT_ON_PLAN };

export type AuditService = ReturnType<typeof createAuditService>;

/** Who reads the audit log: a signed-in member of the organisation (a Principal fits). */
export type AuditReader = Parameters<typeof denialOf>[0] & { organisationId: string };

/**
 * The audit module's ports (docs/adr/0019-modules-own-their-tables.md): audit sits at the bottom of
 * the modules, which all record through it, so what it asks of others is declared here and the
 * composition root supplies it.
 */
export type AuditPorts = {
  /** Whether the organisation's plan includes the audit log (the billing module). */
  plan: { allows(executor: Executor, organisationId: string, feature: 'auditLog'): Promise<boolean> };
  /** Members' names by id, for who changed a record (the team module). */
  members: {
    summariesOf(
      executor: Executor,
      organisationId: string,
      ids: readonly string[],
    ): Promise<Map<string, { name: string }>>;
  };
};

export function createAuditService(deps: AuditPorts & { db: Database; now?: () => Date }) {
  const { db, plan, members } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    /**
     * Appends an entry in the caller's transaction, so the change and its audit item commit or
     * roll back together.
     */
    async record(tx: Executor, actor: AuditActor, entry: AuditEntry): Promise<void> {
      await repo.insertAuditItem(tx, {
        organisationId: actor.organisationId,
        actorId: actor.userId ?? null,
        title: entry.title,
        description: entry.description,
        action: entry.action,
        resourceType: entry.resourceType,
        resourceId: entry.resourceId ?? null,
        projectKey: entry.projectKey ?? null,
        environmentKey: entry.environmentKey ?? null,
        featureKey: entry.featureKey ?? null,
        data: entry.data ?? null,
        createdAt: now(),
      });
    },

    /**
     * The 409 for a write based on a version that is no longer stored, naming who changed the
     * record since (from its latest audit entry): "Ada Lovelace changed this feature after you
     * opened it…", "You changed…" from another window, or an SDK.
     *
     * With `changedAt` (a control's targeting, which the same window also changes from the feature's
     * header), it names the member whoever they are, says when, and the body carries both:
     * "{member} changed this targeting at {time}." (docs/adr/0013-concurrent-edits.md).
     */
    async staleWrite(
      executor: Executor,
      principal: { organisationId: string; userId: string },
      resource: { type: string; id: string; environmentKey?: string | undefined },
      noun: string,
      options: { changedAt?: Date } = {},
    ): Promise<StaleWriteError> {
      const last = await repo.lastActorOf(executor, principal.organisationId, resource);
      const actor = last?.data?.['actor'] as { type?: string } | undefined;
      let who = 'Someone';
      if (last?.actorId === principal.userId && !options.changedAt) who = 'You';
      else if (last?.actorId) {
        const names = await members.summariesOf(executor, principal.organisationId, [last.actorId]);
        who = names.get(last.actorId)?.name ?? who;
      } else if (actor?.type === 'sdk') who = 'An SDK';
      if (options.changedAt) {
        const time = `${options.changedAt.toISOString().slice(11, 16)} UTC`;
        return new StaleWriteError(
          `${targetingChangedMessage(who, time)} Nothing of this save was stored: it was based on the version before.`,
          { by: who, at: options.changedAt },
        );
      }
      const where = who === 'You' ? ' in another window' : '';
      return new StaleWriteError(
        `${who} changed this ${noun}${where} after you opened it. Reload to see the changes, then make yours again.`,
      );
    },

    /** GET /api/v1/audit-items: newest first, 50 a page; the plan must include the audit log. */
    async list(principal: AuditReader, query: AuditQuery): Promise<AuditPage> {
      const denial = denialOf(principal, 'read', { type: 'audit' });
      if (denial) throw ForbiddenError.of(denial);
      if (!(await plan.allows(db, principal.organisationId, 'auditLog')))
        throw new ForbiddenError(AUDIT_NOT_ON_PLAN, 'plan_required');
      const pageSize = Math.min(query.pageSize, AUDIT_PAGE_SIZE);
      const rows = await repo.listAuditItems(
        db,
        principal.organisationId,
        {
          resourceId: query.resourceId,
          projectKey: query.projectKey,
          featureKey: query.featureKey,
          actorId: query.actorId,
          action: query.action,
        },
        { offset: query.page * pageSize, limit: pageSize + 1 },
      );
      return {
        content: rows.slice(0, pageSize).map((row) => ({
          id: row.id,
          title: row.title,
          description: row.description,
          createdDate: row.createdAt.toISOString(),
          ...versionOf(row),
        })),
        last: rows.length <= pageSize,
        page: query.page,
        pageSize,
      };
    },
  };
}

/** The version an entry's change created, where the history can show it (docs/adr/0022-versions.md). */
function versionOf(row: {
  resourceType: string;
  projectKey: string | null;
  environmentKey: string | null;
  featureKey: string | null;
  version: number | null;
}): Partial<Pick<AuditItem, 'version'>> {
  if (row.version === null || !row.projectKey || !row.featureKey) return {};
  const environmentKey = row.resourceType === 'feature_control' ? row.environmentKey : null;
  if (row.resourceType === 'feature_control' && !environmentKey) return {};
  return {
    version: { number: row.version, projectKey: row.projectKey, featureKey: row.featureKey, environmentKey },
  };
}
