import { AUDIT_PAGE_SIZE, can, type AuditPage, type AuditQuery } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import type { AuditAction } from '../../db/schema/index';
import { ForbiddenError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
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

export const AUDIT_NOT_ON_PLAN = 'Audit logs are not available on your current plan.';

export type AuditService = ReturnType<typeof createAuditService>;

export function createAuditService(deps: { db: Database; billing: BillingService; now?: () => Date }) {
  const { db, billing } = deps;
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

    /** GET /api/v1/audit-items: newest first, 50 a page; the plan must include the audit log. */
    async list(principal: Principal, query: AuditQuery): Promise<AuditPage> {
      if (!can(principal, 'read', { type: 'audit' })) throw new ForbiddenError();
      if (!(await billing.allows(principal.organisationId, 'auditLog')))
        throw new ForbiddenError(AUDIT_NOT_ON_PLAN);
      const pageSize = Math.min(query.pageSize, AUDIT_PAGE_SIZE);
      const rows = await repo.listAuditItems(
        db,
        principal.organisationId,
        { resourceId: query.resourceId, projectKey: query.projectKey, featureKey: query.featureKey },
        { offset: query.page * pageSize, limit: pageSize + 1 },
      );
      return {
        content: rows.slice(0, pageSize).map((row) => ({
          id: row.id,
          title: row.title,
          description: row.description,
          createdDate: row.createdAt.toISOString(),
        })),
        last: rows.length <= pageSize,
        page: query.page,
        pageSize,
      };
    },
  };
}
