import { type Segment, type SegmentInput, type SegmentSnapshot } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { BadRequestError, NotFoundError, ValidationError } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import { unprotected, type ControlsService, type EnvironmentProtection } from '../controls/controls.service';
import type { Scope } from '../scope/scope.service';
import { authorOf, originOf, type VersionsService } from '../versions/versions.service';
import { assertSegmentAllowed as assertCan, toSegment } from './segment-access';
import { segmentAudit } from './segment-audit';
import { createSegmentChange, type SegmentTarget } from './segment-change';
import { createSegmentHistory } from './segment-history';
import { recordSegmentVersion } from './segment-versions';
import * as repo from './segments.repository';

/**
 * Segment keys of an environment, for rule validation. Standalone (no service around it) so that the
 * controls module can be given it by the composition root while segments depend on controls.
 */
export function segmentKeysOf(executor: Executor, organisationId: string, environmentId: string) {
  return repo.keysOf(executor, organisationId, environmentId);
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
  versions: VersionsService;
  /** Whether an environment asks for change requests (docs/adr/0024-change-requests.md). */
  protection?: EnvironmentProtection;
  now?: () => Date;
}) {
  const { db, audit, billing, scope, controls, versions } = deps;
  const now = deps.now ?? (() => new Date());
  const change = createSegmentChange({
    db,
    audit,
    billing,
    versions,
    protection: deps.protection ?? unprotected,
    now,
  });

  return {
    /** What change requests read of segments and how they write them (modules/change-requests). */
    forChangeRequests: {
      /** A segment of a live environment and project, with both; `forUpdate` locks its row. */
      find: repo.findById,
      /** A segment of an environment by key. */
      findByKey: repo.findByKey,
      /**
       * Writes the state `next` gives in the request's transaction `tx`, as the segment's next
       * version with source `change-request`.
       */
      write(
        tx: Executor,
        principal: Principal,
        target: SegmentTarget,
        request: { id: string; comment: string | null },
        next: (before: SegmentSnapshot) => SegmentSnapshot,
        /** A restore: the version brought forward, and the live version it is written over. */
        restore?: { from: number; currentVersion: number },
      ): Promise<Segment> {
        return change.within(
          tx,
          principal,
          target,
          {
            origin: { source: 'change-request', comment: request.comment, changeRequestId: request.id },
            changeRequest: { id: request.id },
            restore,
          },
          next,
        );
      },
    },

    /** The segment's versions: list, one, diff and restore (docs/adr/0022-versions.md). */
    history: createSegmentHistory({ db, scope, versions, change }),

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
          const version = await recordSegmentVersion(versions, tx, {
            organisationId: principal.organisationId,
            segment: row,
            author: authorOf(principal),
            origin: originOf(principal, input.comment),
            before: null,
          });
          await audit.record(
            tx,
            principal,
            segmentAudit({
              kind: 'segment.created',
              by: principal.email,
              segment: { id: row.id, key: row.key, name: row.name },
              environment: { key: environment.key, name: environment.name, projectKey: input.projectKey },
              version,
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
      return change(
        principal,
        { id: input.id, projectKey: input.projectKey, environmentKey: input.environmentKey },
        { origin: originOf(principal, input.comment), basedOn: input.lastModifiedDate },
        () => ({ key: input.key, name: input.name, description: input.description }),
      );
    },

    /**
     * DELETE /api/v2/segments/{id}: refused while a rule of the environment still uses it. Its
     * versions go with it (the versions' foreign key cascades), as a deleted feature's do.
     */
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
