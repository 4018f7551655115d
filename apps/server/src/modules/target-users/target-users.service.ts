import type { PageQuery } from '@vexil/core';
import type { Database } from '../../db/client';
import { NotFoundError, assertAllowed } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { Scope } from '../scope/scope.service';
import { targetUserAudit } from './target-user-audit';
import * as repo from './target-users.repository';

export type TargetUsersService = ReturnType<typeof createTargetUsersService>;

/** The users SDKs reported in an environment, with their latest attributes (docs/product.md §2 Users page). */
export function createTargetUsersService(deps: { db: Database; audit: AuditService; scope: Scope }) {
  const { db, audit, scope } = deps;
  return {
    /** Most recently seen first, 50 a page, optionally those whose id contains the query. */
    async page(
      principal: Principal,
      projectKey: string,
      environmentKey: string,
      query: PageQuery & { query?: string | undefined },
    ) {
      const environment = await scope.environment(db, principal.organisationId, projectKey, environmentKey);
      const needle = query.query?.trim();
      const { rows, total } = await repo.page(
        db,
        principal.organisationId,
        environment.id,
        needle || undefined,
        query.page * query.pageSize,
        query.pageSize,
      );
      return {
        content: rows.map((row) => ({
          id: row.userKey,
          attributes: row.attributes,
          lastSeenDate: row.lastSeenAt.toISOString(),
        })),
        last: (query.page + 1) * query.pageSize >= total,
        page: query.page,
        pageSize: query.pageSize,
        totalElements: total,
      };
    },

    /** Forgets a user (their attributes) in an environment; they reappear if an SDK reports them again. */
    async remove(
      principal: Principal,
      projectKey: string,
      environmentKey: string,
      userKey: string,
    ): Promise<void> {
      const environment = await scope.environment(db, principal.organisationId, projectKey, environmentKey);
      assertAllowed(principal, 'delete', {
        type: 'targetUser',
        environment: {
          production: environment.production,
          tags: environment.tags,
          projectId: environment.project.id,
        },
      });
      await db.transaction(async (tx) => {
        if (!(await repo.remove(tx, principal.organisationId, environment.id, userKey)))
          throw new NotFoundError('user', userKey);
        await audit.record(
          tx,
          principal,
          targetUserAudit({
            kind: 'target_user.removed',
            by: principal.email,
            userKey,
            environment: { key: environment.key, name: environment.name, projectKey },
          }),
        );
      });
    },
  };
}
