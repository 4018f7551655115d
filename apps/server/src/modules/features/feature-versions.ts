import { featureSettingsChanges, sameJson, type FeatureSettingsSnapshot } from '@vexil/core';
import type { Executor } from '../../db/client';
import type { TeamService } from '../team/team.service';
import type { ChangeOrigin, VersionAuthor, VersionsService } from '../versions/versions.service';
import * as linkRepo from './feature-links.repository';
import * as repo from './features.repository';
import type { FeatureRecord } from './features.types';

/*
 * Versions of a feature's settings (docs/adr/0022-versions.md): resource type `feature`, one history
 * per feature, whose snapshot is the Feature Settings form's fields. The features module records them
 * in the transaction of each of its writes that changes the snapshot.
 */

/** The history of a feature's settings. */
export function settingsRef(organisationId: string, featureId: string) {
  return { organisationId, resourceType: 'feature' as const, resourceId: featureId };
}

/** Who names a maintainer in a snapshot: the team's summaries (the dashboard's display name). */
export type MaintainerNames = Pick<TeamService, 'summariesOf'>;

/**
 * A feature's settings as a version keeps them, read as they are stored now (in the write's
 * transaction): variants in order, tags, goals by key, issue keys in the order they were linked,
 * and the maintainer by id with the name shown at that moment.
 */
export async function settingsSnapshot(
  executor: Executor,
  team: MaintainerNames,
  organisationId: string,
  feature: FeatureRecord,
): Promise<FeatureSettingsSnapshot> {
  const variantRows = await repo.variantsOf(executor, organisationId, [feature.id]);
  const links = await linkRepo.issueLinksOf(executor, organisationId, [feature.id]);
  const goalRows = await linkRepo.goalKeysOf(executor, organisationId, [feature.id]);
  const maintainerId = feature.maintainerId;
  const maintainer = maintainerId
    ? (await team.summariesOf(executor, organisationId, [maintainerId])).get(maintainerId)
    : undefined;
  return {
    name: feature.name,
    key: feature.key,
    description: feature.description,
    permanent: feature.permanent,
    variants: variantRows.map((v) => ({
      key: v.key,
      name: v.name,
      description: v.description,
      ...(v.value === null ? {} : { value: v.value }),
    })),
    tags: [...feature.tags],
    goals: goalRows.map((g) => g.key),
    jiraIssueKeys: links.map((l) => l.key),
    maintainer: maintainer ? { id: maintainer.id, name: maintainer.name } : null,
  };
}

/**
 * Whether two snapshots hold the same settings. The maintainer is compared by id: a member renaming
 * themselves changes no feature's settings.
 */
export function sameSettings(a: FeatureSettingsSnapshot, b: FeatureSettingsSnapshot): boolean {
  const byId = (s: FeatureSettingsSnapshot) => ({ ...s, maintainer: s.maintainer?.id ?? null });
  return sameJson(byId(a), byId(b));
}

/** What changed since the version before, a maintainer renamed since it not counting as a change. */
function describe(before: FeatureSettingsSnapshot | null, after: FeatureSettingsSnapshot): string[] {
  if (before?.maintainer && before.maintainer.id === after.maintainer?.id) {
    return featureSettingsChanges({ ...before, maintainer: after.maintainer }, after);
  }
  return featureSettingsChanges(before, after);
}

/** One write of a feature's settings: by whom, from where, and the state before and after. */
export type SettingsWrite = {
  organisationId: string;
  featureId: string;
  author: VersionAuthor;
  origin: ChangeOrigin;
  restoredFrom?: number | undefined;
  before: FeatureSettingsSnapshot;
  after: FeatureSettingsSnapshot;
};

/**
 * Records the next version of a feature's settings when the write changed them; the number it was
 * given, or undefined when the settings are as they were (no version). The caller holds the feature's
 * row lock.
 */
export async function recordSettingsVersion(
  versions: VersionsService,
  tx: Executor,
  write: SettingsWrite,
): Promise<number | undefined> {
  if (sameSettings(write.before, write.after)) return undefined;
  const { number } = await versions.record(tx, {
    ...settingsRef(write.organisationId, write.featureId),
    featureId: write.featureId,
    author: write.author,
    origin: write.origin,
    restoredFrom: write.restoredFrom,
    snapshot: write.after,
    describe: (previous) => describe(previous, write.after),
  });
  return number;
}

/** Records version 1 of the settings of features just created. */
export async function recordFirstSettingsVersions(
  versions: VersionsService,
  tx: Executor,
  created: readonly { organisationId: string; featureId: string; snapshot: FeatureSettingsSnapshot }[],
  by: { author: VersionAuthor; origin: ChangeOrigin },
): Promise<void> {
  await versions.recordFirst(
    tx,
    created.map((feature) => ({
      ...settingsRef(feature.organisationId, feature.featureId),
      featureId: feature.featureId,
      author: by.author,
      origin: by.origin,
      snapshot: feature.snapshot,
      describe: () => featureSettingsChanges(null, feature.snapshot),
    })),
  );
}
