import { type Target, type TargetInput, type TargetType } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { ValidationError, assertAllowed } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { Scope } from '../scope/scope.service';
import { targetAudit } from './target-audit';
import * as repo from './targets.repository';

/** Most suggestions the values endpoint returns. */
export const TARGET_VALUES_LIMIT = 50;

function keyTakenError(key: string) {
  return new ValidationError('key', `A target with the key "${key}" already exists in this project.`);
}

export type TargetsService = ReturnType<typeof createTargetsService>;

/** Targets: the user attributes rules test, with their types (docs/product.md §3 Target). */
export function createTargetsService(deps: {
  db: Database;
  audit: AuditService;
  /** While the subscription is inactive nothing changes (docs/product.md §4). */
  billing: Pick<BillingService, 'assertActive'>;
  scope: Scope;
  now?: () => Date;
}) {
  const { db, audit, billing, scope } = deps;
  const now = deps.now ?? (() => new Date());

  function requireProject(executor: Executor, organisationId: string, projectKey: string) {
    return scope.project(executor, organisationId, projectKey);
  }

  return {
    /** Declared target types of a project by key, for rule validation. */
    async typesOf(
      executor: Executor,
      organisationId: string,
      projectId: string,
    ): Promise<Record<string, TargetType>> {
      const rows = await repo.listByProject(executor, organisationId, projectId);
      return Object.fromEntries(rows.map((row) => [row.key, row.type]));
    },

    /** GET /api/v1/projects/{projectKey}/targets */
    async list(principal: Principal, projectKey: string): Promise<Target[]> {
      const project = await requireProject(db, principal.organisationId, projectKey);
      const rows = await repo.listByProject(db, principal.organisationId, project.id);
      return rows.map(({ key, name, type }) => ({ key, name, type }));
    },

    /** POST /api/v1/projects/{projectKey}/targets: editors and above. */
    async create(principal: Principal, projectKey: string, input: TargetInput): Promise<Target> {
      try {
        return await db.transaction(async (tx) => {
          const project = await requireProject(tx, principal.organisationId, projectKey);
          // After the project: a custom role may allow creating targets in some projects only.
          assertAllowed(principal, 'create', { type: 'target', projectId: project.id });
          await billing.assertActive(tx, principal.organisationId);
          if (await repo.keyTaken(tx, project.id, input.key)) throw keyTakenError(input.key);
          const at = now();
          const row = await repo.insert(tx, {
            organisationId: principal.organisationId,
            projectId: project.id,
            key: input.key,
            name: input.name,
            type: input.type,
            createdAt: at,
            updatedAt: at,
          });
          await audit.record(
            tx,
            principal,
            targetAudit({
              kind: 'target.created',
              by: principal.email,
              target: { id: row.id, key: row.key, name: row.name, type: row.type },
              project: { key: project.key, name: project.name },
            }),
          );
          return { key: row.key, name: row.name, type: row.type };
        });
      } catch (error) {
        if (isUniqueViolation(error, 'targets_project_key_unique')) throw keyTakenError(input.key);
        throw error;
      }
    },

    /**
     * GET /api/v1/projects/{projectKey}/targets/{target}/values?query=: values already used in the
     * project's rules for this attribute, then values SDK users reported, containing the query.
     */
    async values(principal: Principal, projectKey: string, targetKey: string, text: string | undefined) {
      const project = await requireProject(db, principal.organisationId, projectKey);
      const needle = text?.trim().toLowerCase() || undefined;
      const used = new Set<string>();
      for (const rules of await repo.rulesOfProject(db, principal.organisationId, project.id)) {
        for (const rule of rules) {
          for (const condition of rule.audience?.conditions ?? []) {
            if (condition.target !== targetKey) continue;
            for (const value of condition.values) used.add(String(value));
          }
        }
      }
      const matching = [...used].filter((v) => !needle || v.toLowerCase().includes(needle)).sort();
      const seen = await repo.seenValues(db, project.id, targetKey, needle, TARGET_VALUES_LIMIT);
      return [...new Set([...matching, ...seen])].slice(0, TARGET_VALUES_LIMIT);
    },
  };
}
