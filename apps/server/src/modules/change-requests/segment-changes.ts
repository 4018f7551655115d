import {
  mergeFields,
  sameJson,
  segmentChanges,
  segmentSnapshotSchema,
  type ChangeInput,
  type SegmentSnapshot,
} from '@vexil/core';
import { NotFoundError, ValidationError, assertAllowed } from '../../errors';
import { changedSince } from '../../lib/versions';
import type { AuditService } from '../audit/audit.service';
import type { SegmentsService } from '../segments/segments.service';
import { nothingToRestore, type VersionsService } from '../versions/versions.service';
import type { ChangeKind } from './change-plan';

/** A segment's fields as people call them (a conflict names them). */
const LABELS = { name: 'Name', description: 'Description', key: 'Key' };

/**
 * Changes of a segment of the request's environment (kind `segment`): its name and description, as
 * the Edit Segment form saves them; the key never changes.
 */
export function createSegmentChanges(deps: {
  segments: SegmentsService['forChangeRequests'];
  versions: VersionsService;
  audit: AuditService;
}): ChangeKind<Extract<ChangeInput, { kind: 'segment' }>> {
  const { segments, versions, audit } = deps;
  const refOf = (organisationId: string, id: string) => ({
    organisationId,
    resourceType: 'segment' as const,
    resourceId: id,
  });

  return {
    async resolve(tx, principal, found, input) {
      const organisationId = principal.organisationId;
      const segment = await segments.find(tx, organisationId, input.id);
      if (!segment || segment.project.id !== found.project.id) throw new NotFoundError('segment', input.id);
      if (segment.environment.id !== found.environment.id) {
        throw new ValidationError('id', 'This segment is not in the environment of this change request.');
      }
      assertAllowed(principal, 'update', {
        type: 'segment',
        environment: { ...segment.environment, projectId: found.project.id },
      });
      if (changedSince(segment.segment.updatedAt, input.lastModifiedDate)) {
        throw await audit.staleWrite(tx, principal, { type: 'segment', id: input.id }, 'segment');
      }
      if (input.key !== segment.segment.key)
        throw new ValidationError('key', 'The key of a segment cannot be changed.');
      const live = await versions.latest(tx, refOf(organisationId, input.id));
      const proposed: SegmentSnapshot = { key: input.key, name: input.name, description: input.description };
      return {
        kind: 'segment',
        resourceType: 'segment',
        resourceId: input.id,
        featureId: null,
        baseVersion: live?.number ?? null,
        restoredFrom: null,
        comment: input.comment || null,
        proposed,
        label: `Segment ${segment.segment.name}`,
      };
    },

    async restore(tx, principal, found, input) {
      const organisationId = principal.organisationId;
      if (!input.segmentKey) throw new ValidationError('segmentKey', 'Segment key is required');
      const segment = await segments.findByKey(tx, organisationId, found.environment.id, input.segmentKey);
      if (!segment) throw new NotFoundError('segment', input.segmentKey);
      assertAllowed(principal, 'update', {
        type: 'segment',
        environment: { ...found.environment, projectId: found.project.id },
      });
      const ref = refOf(organisationId, segment.id);
      const version = await versions.latest(tx, ref);
      if (version && version.number !== input.currentVersion)
        throw await audit.staleWrite(tx, principal, { type: 'segment', id: segment.id }, 'segment');
      const snapshot = await versions.snapshot(tx, ref, input.number, segmentSnapshotSchema);
      const live: SegmentSnapshot = {
        key: segment.key,
        name: segment.name,
        description: segment.description,
      };
      if (sameJson(live, snapshot)) throw nothingToRestore(input.number);
      return {
        kind: 'restore',
        resourceType: 'segment',
        resourceId: segment.id,
        featureId: null,
        baseVersion: version?.number ?? null,
        restoredFrom: input.number,
        comment: input.comment || null,
        proposed: snapshot,
        label: `Segment ${segment.name} (version ${input.number} restored)`,
      };
    },

    async plan(executor, organisationId, change, options = {}) {
      const found = await segments.find(executor, organisationId, change.resourceId, options);
      if (!found) return null;
      const ref = refOf(organisationId, change.resourceId);
      const live = await versions.latest(executor, ref);
      const base =
        change.baseVersion === null ? undefined : await versions.byNumber(executor, ref, change.baseVersion);
      const liveState: SegmentSnapshot = {
        key: found.segment.key,
        name: found.segment.name,
        description: found.segment.description,
      };
      const proposed = segmentSnapshotSchema.parse(change.proposed);
      const baseState = base ? segmentSnapshotSchema.parse(base.snapshot) : liveState;
      const { merged, conflicts } = mergeFields(baseState, liveState, proposed, LABELS);
      const target = {
        id: found.segment.id,
        projectKey: found.project.key,
        environmentKey: found.environment.key,
      };
      return {
        change,
        resourceName: found.segment.name,
        featureKey: null,
        base: baseState,
        live: liveState,
        proposed,
        merged,
        conflicts,
        liveVersion: live?.number ?? null,
        liveAuthor: live?.authorName ?? null,
        describe: (from, to) => segmentChanges(from as SegmentSnapshot, to as SegmentSnapshot),
        same: sameJson,
        async write(tx, principal, request) {
          const restore =
            change.restoredFrom === null
              ? undefined
              : { from: change.restoredFrom, currentVersion: live?.number ?? 0 };
          await segments.write(
            tx,
            principal,
            target,
            { id: request.id, comment: change.comment ?? request.title },
            () => merged,
            restore,
          );
          // A segment's name and description are in no SDK payload: nothing to announce.
          return () => {};
        },
      };
    },
  };
}
