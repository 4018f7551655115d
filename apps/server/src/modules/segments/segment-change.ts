import type { Segment, SegmentSnapshot } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { NotFoundError, ValidationError } from '../../errors';
import { changedSince } from '../../lib/versions';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { EnvironmentProtection } from '../controls/controls.service';
import { authorOf, type ChangeOrigin, type VersionsService } from '../versions/versions.service';
import { assertSegmentAllowed, toSegment } from './segment-access';
import { segmentAudit } from './segment-audit';
import { recordSegmentVersion, segmentRef, segmentSnapshot } from './segment-versions';
import * as repo from './segments.repository';

/** The segment a write names: by id, in the project and environment the caller gave. */
export type SegmentTarget = { id: string; projectKey: string; environmentKey: string };

/** How one write of a segment is checked and recorded. */
export type SegmentChangeOptions = {
  origin: ChangeOrigin;
  /** The `lastModifiedDate` the editor saw (the Edit Segment form). */
  basedOn?: string | undefined;
  /** A restore: the version brought forward and the version the restorer saw as current. */
  restore?: { from: number; currentVersion: number } | undefined;
  /** The applied change request this write belongs to; without one, the environment's protection decides. */
  changeRequest?: { id: string } | undefined;
};

export type SegmentChange = ReturnType<typeof createSegmentChange>;

/**
 * The one write path of an existing segment (a save, a restore), in one transaction: the row locked,
 * update permission in its environment (production rights in production) and the subscription
 * checked, refused with 409 when it changed since what the writer saw, the key kept; stored,
 * versioned when the segment changed (docs/adr/0022-versions.md) and audited with the version.
 * A segment's name and description are in no SDK payload (rules name segments by key), so nothing is
 * announced.
 */
export function createSegmentChange(deps: {
  db: Database;
  audit: AuditService;
  billing: Pick<BillingService, 'assertActive'>;
  versions: VersionsService;
  /** Whether the environment asks for change requests (docs/adr/0024-change-requests.md). */
  protection: EnvironmentProtection;
  now: () => Date;
}) {
  const { db, audit, billing, versions, protection, now } = deps;

  /** One write in the caller's transaction `tx` (a change request's apply, or `change` below). */
  async function within(
    tx: Executor,
    principal: Principal,
    target: SegmentTarget,
    options: SegmentChangeOptions,
    next: (before: SegmentSnapshot) => SegmentSnapshot,
  ): Promise<Segment> {
    const organisationId = principal.organisationId;
    const { id } = target;
    const found = await repo.findById(tx, organisationId, id, { forUpdate: true });
    if (
      !found ||
      found.project.key !== target.projectKey ||
      found.environment.key !== target.environmentKey
    ) {
      throw new NotFoundError('segment', id);
    }
    // An applied change request was drafted by someone with these rights (change-requests module).
    if (!options.changeRequest) {
      assertSegmentAllowed(principal, 'update', found.environment, found.project.id);
    }
    await billing.assertActive(tx, organisationId);
    const { bypass } = options.changeRequest
      ? { bypass: false }
      : await protection(
          tx,
          principal,
          { ...found.environment, projectId: found.project.id },
          { type: 'segment', id },
        );
    const stale = () => audit.staleWrite(tx, principal, { type: 'segment', id }, 'segment');
    if (changedSince(found.segment.updatedAt, options.basedOn)) throw await stale();
    if (options.restore) {
      const current = await versions.latest(tx, segmentRef(organisationId, id));
      if (current && current.number !== options.restore.currentVersion) throw await stale();
    }
    const before = segmentSnapshot(found.segment);
    const input = next(before);
    if (input.key !== found.segment.key)
      throw new ValidationError('key', 'The key of a segment cannot be changed.');
    const row = await repo.update(tx, organisationId, id, {
      name: input.name,
      description: input.description,
      updatedAt: now(),
    });
    const version = await recordSegmentVersion(versions, tx, {
      organisationId,
      segment: row,
      author: authorOf(principal),
      origin: options.origin,
      restoredFrom: options.restore?.from,
      before,
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
        version,
        restoredFrom: options.restore?.from,
        bypass,
      }),
    );
    return toSegment(row, found.project.key, found.environment.key);
  }

  /** One write in its own transaction. */
  function change(
    principal: Principal,
    target: SegmentTarget,
    options: SegmentChangeOptions,
    next: (before: SegmentSnapshot) => SegmentSnapshot,
  ): Promise<Segment> {
    return db.transaction((tx) => within(tx, principal, target, options, next));
  }

  return Object.assign(change, { within });
}
