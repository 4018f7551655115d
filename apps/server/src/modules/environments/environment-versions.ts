import { environmentChanges, sameJson, type EnvironmentSnapshot } from '@vexil/core';
import type { Executor } from '../../db/client';
import type { ChangeOrigin, VersionAuthor, VersionsService } from '../versions/versions.service';
import type { EnvironmentRecord } from './environments.types';

/*
 * Versions of an environment's settings (docs/adr/0022-versions.md): resource type `environment`, one
 * history per environment, whose snapshot is the Edit Environment form's fields. Its SDK keys are
 * secrets and not settings: a rotation records no version. The environments module records them in
 * the transaction of each write that changes the settings.
 */

/** The history of an environment's settings. */
export function environmentRef(organisationId: string, environmentId: string) {
  return { organisationId, resourceType: 'environment' as const, resourceId: environmentId };
}

/** An environment's settings as a version keeps them (`url` `''` when none, as the API shows it). */
export function environmentSnapshot(row: EnvironmentRecord): EnvironmentSnapshot {
  return {
    name: row.name,
    key: row.key,
    url: row.url ?? '',
    color: row.color,
    local: row.local,
    production: row.production,
    tags: [...row.tags],
    sdkCanCreateFeatures: row.sdkCanCreateFeatures,
  };
}

/** One write of an environment's settings: by whom, from where, and the settings before and after. */
export type EnvironmentWrite = {
  organisationId: string;
  environment: EnvironmentRecord;
  author: VersionAuthor;
  origin: ChangeOrigin;
  restoredFrom?: number | undefined;
  /** null for an environment just created: its version 1. */
  before: EnvironmentSnapshot | null;
};

/**
 * Records the next version of an environment's settings when the write changed them (version 1 for a
 * new one); the number it was given, or undefined when they are as they were. The caller holds the
 * environment's row lock (or created it in this transaction).
 */
export async function recordEnvironmentVersion(
  versions: VersionsService,
  tx: Executor,
  write: EnvironmentWrite,
): Promise<number | undefined> {
  const after = environmentSnapshot(write.environment);
  if (write.before !== null && sameJson(write.before, after)) return undefined;
  const { number } = await versions.record(tx, {
    ...environmentRef(write.organisationId, write.environment.id),
    environmentId: write.environment.id,
    author: write.author,
    origin: write.origin,
    restoredFrom: write.restoredFrom,
    snapshot: after,
    describe: (previous) => environmentChanges(previous, after),
  });
  return number;
}
