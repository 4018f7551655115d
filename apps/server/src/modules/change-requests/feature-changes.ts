import {
  featureSettingsChanges,
  featureSettingsSnapshotSchema,
  mergeFields,
  sameJson,
  type ChangeInput,
  type FeatureSettingsSnapshot,
} from '@vexil/core';
import { NotFoundError, ValidationError, assertAllowed } from '../../errors';
import { nothingToRestore } from '../versions/versions.service';
import { changedSince } from '../../lib/versions';
import type { AuditService } from '../audit/audit.service';
import type { FeaturesService } from '../features/features.service';
import type { VersionsService } from '../versions/versions.service';
import type { ChangeKind } from './change-plan';

/** A feature's settings as they merge: the maintainer by id, so a renamed member is no change. */
type SettingsForm = Omit<FeatureSettingsSnapshot, 'maintainer'> & { maintainer: string | null };

/** The settings' fields as people call them (a conflict names them). */
const LABELS: Partial<Record<keyof SettingsForm, string>> = {
  name: 'Name',
  description: 'Description',
  permanent: 'Permanent',
  variants: 'Variants',
  tags: 'Tags',
  goals: 'Goals',
  jiraIssueKeys: 'Jira issues',
  maintainer: 'Maintainer',
};

function formOf(snapshot: FeatureSettingsSnapshot): SettingsForm {
  return { ...snapshot, maintainer: snapshot.maintainer?.id ?? null };
}

/**
 * Changes of a feature's settings (kind `feature`), as the Feature Settings form saves them. They
 * apply to every environment of the project; the request names one of its protected environments.
 */
export function createFeatureChanges(deps: {
  features: FeaturesService['forChangeRequests'];
  versions: VersionsService;
  audit: AuditService;
}): ChangeKind<Extract<ChangeInput, { kind: 'feature' }>> {
  const { features, versions, audit } = deps;
  const refOf = (organisationId: string, id: string) => ({
    organisationId,
    resourceType: 'feature' as const,
    resourceId: id,
  });

  return {
    async resolve(tx, principal, found, input) {
      const organisationId = principal.organisationId;
      const feature = await features.find(tx, organisationId, input.id);
      if (!feature || feature.project.id !== found.project.id) throw new NotFoundError('feature', input.id);
      assertAllowed(principal, 'update', { type: 'feature', projectId: found.project.id });
      if (changedSince(feature.feature.updatedAt, input.lastModifiedDate)) {
        throw await audit.staleWrite(tx, principal, { type: 'feature', id: input.id }, 'feature');
      }
      const live = await features.snapshot(tx, organisationId, feature.feature);
      const removed = live.variants.filter((v) => !input.variants.some((w) => w.key === v.key));
      if (removed.length > 0) {
        throw new ValidationError(
          'variants',
          `Existing variants cannot be removed or re-keyed: ${removed.map((v) => `"${v.key}"`).join(', ')}.`,
        );
      }
      const maintainerName = input.maintainerId
        ? await features.maintainerName(tx, organisationId, input.maintainerId)
        : undefined;
      if (input.maintainerId && maintainerName === undefined)
        throw new ValidationError('maintainerId', 'The maintainer must be a member of this organisation.');
      const proposed: FeatureSettingsSnapshot = {
        name: input.name,
        key: live.key,
        description: input.description,
        permanent: input.permanent,
        variants: input.variants.map((v) => ({
          key: v.key,
          name: v.name,
          description: v.description,
          ...(v.value === undefined ? {} : { value: v.value }),
        })),
        tags: input.tags,
        goals: input.goals,
        jiraIssueKeys: input.jiraIssueKeys,
        maintainer: input.maintainerId ? { id: input.maintainerId, name: maintainerName! } : null,
      };
      const version = await versions.latest(tx, refOf(organisationId, input.id));
      return {
        kind: 'feature',
        resourceType: 'feature',
        resourceId: input.id,
        featureId: input.id,
        baseVersion: version?.number ?? null,
        restoredFrom: null,
        comment: input.comment || null,
        proposed,
        label: `${feature.feature.name} settings`,
      };
    },

    async restore(tx, principal, found, input) {
      const organisationId = principal.organisationId;
      if (!input.featureKey) throw new ValidationError('featureKey', 'Feature key is required');
      const feature = await features.findByKey(tx, organisationId, found.project.key, input.featureKey);
      if (!feature) throw new NotFoundError('feature', input.featureKey);
      assertAllowed(principal, 'update', { type: 'feature', projectId: found.project.id });
      const ref = refOf(organisationId, feature.feature.id);
      const version = await versions.latest(tx, ref);
      if (version && version.number !== input.currentVersion)
        throw await audit.staleWrite(tx, principal, { type: 'feature', id: feature.feature.id }, 'feature');
      const snapshot = await versions.snapshot(tx, ref, input.number, featureSettingsSnapshotSchema);
      const live = await features.snapshot(tx, organisationId, feature.feature);
      if (sameJson(formOf(live), formOf({ ...snapshot, key: live.key })))
        throw nothingToRestore(input.number);
      return {
        kind: 'restore',
        resourceType: 'feature',
        resourceId: feature.feature.id,
        featureId: feature.feature.id,
        baseVersion: version?.number ?? null,
        restoredFrom: input.number,
        comment: input.comment || null,
        // The key never changes: a version's key is the feature's.
        proposed: { ...snapshot, key: live.key },
        label: `${feature.feature.name} settings (version ${input.number} restored)`,
      };
    },

    async plan(executor, organisationId, change, options = {}) {
      const found = await features.find(executor, organisationId, change.resourceId, options);
      if (!found) return null;
      const ref = refOf(organisationId, change.resourceId);
      const version = await versions.latest(executor, ref);
      const base =
        change.baseVersion === null ? undefined : await versions.byNumber(executor, ref, change.baseVersion);
      const liveSnapshot = await features.snapshot(executor, organisationId, found.feature);
      const proposedSnapshot = featureSettingsSnapshotSchema.parse(change.proposed);
      const baseSnapshot = base ? featureSettingsSnapshotSchema.parse(base.snapshot) : liveSnapshot;
      // Maintainers by id while merging; by the name each snapshot knows them by when described.
      const names = new Map(
        [proposedSnapshot, baseSnapshot, liveSnapshot].flatMap((s) =>
          s.maintainer ? [[s.maintainer.id, s.maintainer.name]] : [],
        ) as [string, string][],
      );
      const named = (form: SettingsForm): FeatureSettingsSnapshot => ({
        ...form,
        maintainer: form.maintainer
          ? { id: form.maintainer, name: names.get(form.maintainer) ?? form.maintainer }
          : null,
      });
      const [baseForm, live, proposed] = [
        formOf(baseSnapshot),
        formOf(liveSnapshot),
        formOf(proposedSnapshot),
      ];
      const { merged, conflicts } = mergeFields(baseForm, live, proposed, LABELS);
      return {
        change,
        resourceName: found.feature.name,
        featureKey: found.feature.key,
        base: baseForm,
        live,
        proposed,
        merged,
        conflicts,
        liveVersion: version?.number ?? null,
        liveAuthor: version?.authorName ?? null,
        describe: (from, to) =>
          featureSettingsChanges(named(from as SettingsForm), named(to as SettingsForm)),
        same: sameJson,
        toProposal: (state) => named(state as SettingsForm),
        async write(tx, principal, request) {
          const restore =
            change.restoredFrom === null
              ? undefined
              : { from: change.restoredFrom, currentVersion: version?.number ?? 0, snapshot: named(merged) };
          const written = await features.write(
            tx,
            principal,
            { projectKey: found.project.key, featureId: found.feature.id },
            { id: request.id, comment: change.comment ?? request.title },
            (before) => ({
              name: merged.name,
              key: before.key,
              description: merged.description,
              permanent: merged.permanent,
              variants: merged.variants.map((v) => ({ ...v })),
              tags: [...merged.tags],
              jiraIssueKeys: [...merged.jiraIssueKeys],
              goals: [...merged.goals],
              maintainerId: merged.maintainer,
            }),
            restore,
          );
          return written.afterCommit;
        },
      };
    },
  };
}
