import { type EnvironmentConstraint, type Segment, type SegmentInput } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { BadRequestError, NotFoundError, ValidationError, assertAllowed } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { ControlsService } from '../controls/controls.service';
import type { Scope } from '../scope/scope.service';
import { changedSince } from '../../lib/versions';
import { segmentAudit } from './segment-audit';
import * as repo from './segments.repository';
import type { SegmentRecord } from './segments.types';

/**
 * Segment keys of an environment, for rule validation. Standalone (no service around it) so that the
 * controls module can be given it by the composition root while segments depend on controls.
 */
export function segmentKeysOf(executor: Executor, organisationId: string, environmentId: string) {
  return repo.keysOf(executor, organisationId, environmentId);
}

function toSegment(row: SegmentRecord, projectKey: string, environmentKey: string): Segment {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    projectKey,
    environmentKey,
    lastModifiedDate: row.updatedAt.toISOString(),
  };
}

function keyTakenError(key: string) {
  return new ValidationError('key', `A segment with the key "${key}" already exists in this environment.`);
}

export type SegmentsService = ReturnType<typeof createSegmentsService>;

/** Segments: user cohorts of one environment, targeted by segment-type conditions (docs/product.md §3). */
export function createSegmentsService(deps: {
  db: Database;
  audit: AuditService;
  /** While the subscription is inactive nothing changes (docs/product.md §4). */
  billing: Pick<BillingService, 'assertActive'>;
  scope: Scope;
  controls: ControlsService;
  now?: () => Date;
}) {
  const { db, audit, billing, scope, controls } = deps;
  const now = deps.now ?? (() => new Date());

  function assertCan(
    principal: Principal,
    action: 'create' | 'update' | 'delete',
    environment: EnvironmentConstraint,
    projectId: string,
  ) {
    assertAllowed(principal, action, {
      type: 'segment',
      environment: { production: environment.production, tags: environment.tags ?? [], projectId },
    });
  }

  return {
    /** GET /api/v2/segments/{projectKey}/{environmentKey}?query= */
    async list(principal: Principal, projectKey: string, environmentKey: string, text: string | undefined) {
      const environment = await scope.environment(db, principal.organisationId, projectKey, environmentKey);
      const needle = text?.trim();
      const rows = await repo.list(db, principal.organisationId, environment.id, needle || undefined);
      return rows.map((row) => toSegment(row, projectKey, environment.key));
    },

    /** POST /api/v2/segments/: create permission in that environment (production marker and tags). */
    async create(principal: Principal, input: SegmentInput): Promise<Segment> {
      if (input.id !== undefined)
        throw new ValidationError('id', 'A new segment has no id: use PUT to update.');
      const environment = await scope.environment(
        db,
        principal.organisationId,
        input.projectKey,
        input.environmentKey,
      );
      assertCan(principal, 'create', environment, environment.project.id);
      try {
        return await db.transaction(async (tx) => {
          await billing.assertActive(tx, principal.organisationId);
          if (await repo.keyTaken(tx, environment.id, input.key)) throw keyTakenError(input.key);
          const at = now();
          const row = await repo.insert(tx, {
            organisationId: principal.organisationId,
            environmentId: environment.id,
            key: input.key,
            name: input.name,
            description: input.description,
            createdAt: at,
            updatedAt: at,
          });
          await audit.record(
            tx,
            principal,
            segmentAudit({
              kind: 'segment.created',
              by: principal.email,
              segment: { id: row.id, key: row.key, name: row.name },
              environment: { key: environment.key, name: environment.name, projectKey: input.projectKey },
            }),
          );
          return toSegment(row, input.projectKey, environment.key);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'segments_environment_key_unique')) throw keyTakenError(input.key);
        throw error;
      }
    },

    /** PUT /api/v2/segments/: name and description; the key and environment stay. */
    async update(principal: Principal, input: SegmentInput): Promise<Segment> {
      if (input.id === undefined) throw new ValidationError('id', 'An id is required to update a segment.');
      const id = input.id;
      return db.transaction(async (tx) => {
        const found = await repo.findById(tx, principal.organisationId, id, { forUpdate: true });
        if (
          !found ||
          found.project.key !== input.projectKey ||
          found.environment.key !== input.environmentKey
        ) {
          throw new NotFoundError('segment', id);
        }
        assertCan(principal, 'update', found.environment, found.project.id);
        await billing.assertActive(tx, principal.organisationId);
        if (changedSince(found.segment.updatedAt, input.lastModifiedDate))
          throw await audit.staleWrite(tx, principal, { type: 'segment', id }, 'segment');
        if (input.key !== found.segment.key)
          throw new ValidationError('key', 'The key of a segment cannot be changed.');
        const row = await repo.update(tx, principal.organisationId, id, {
          name: input.name,
          description: input.description,
          updatedAt: now(),
        });
        await audit.record(
          tx,
          principal,
          segmentAudit({
            kind: 'segment.updated',
            by: principal.email,
            segment: { id, key: row.key },
            environment: {
              key: found.environment.key,
              name: found.environment.name,
              projectKey: found.project.key,
            },
            name: { from: found.segment.name, to: row.name },
            descriptionChanged: found.segment.description !== row.description,
          }),
        );
        return toSegment(row, found.project.key, found.environment.key);
      });
    },

    /** DELETE /api/v2/segments/{id}: refused while a rule of the environment still uses it. */
    async remove(principal: Principal, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const found = await repo.findById(tx, principal.organisationId, id);
        if (!found) throw new NotFoundError('segment', id);
        assertCan(principal, 'delete', found.environment, found.project.id);
        await billing.assertActive(tx, principal.organisationId);
        const users = await controls.usingSegment(
          tx,
          principal.organisationId,
          { projectId: found.project.id, environmentId: found.environment.id },
          found.segment.key,
        );
        if (users.length > 0) {
          throw new BadRequestError(
            `The segment "${found.segment.name}" is used by the targeting of ${users.map((n) => `"${n}"`).join(', ')}. Remove it from those rules first.`,
          );
        }
        await repo.remove(tx, principal.organisationId, id);
        await audit.record(
          tx,
          principal,
          segmentAudit({
            kind: 'segment.deleted',
            by: principal.email,
            segment: { id, key: found.segment.key, name: found.segment.name },
            environment: {
              key: found.environment.key,
              name: found.environment.name,
              projectKey: found.project.key,
            },
          }),
        );
      });
    },
  };
}
