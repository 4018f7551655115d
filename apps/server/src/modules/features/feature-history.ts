import {
  featureSettingsChanges,
  featureSettingsSnapshotSchema,
  type Feature,
  type RestoreVersionInput,
  type Version,
  type VersionDiff,
  type VersionPage,
} from '@vexil/core';
import type { Database } from '../../db/client';
import { NotFoundError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import { nothingToRestore, type VersionsService } from '../versions/versions.service';
import { settingsOf, type FeatureSettingsChange } from './feature-settings-change';
import { sameSettings, settingsRef } from './feature-versions';
import * as repo from './features.repository';

/** A feature, named as the history routes name it. */
export type FeatureKeys = { projectKey: string; featureKey: string };

export type FeatureHistory = ReturnType<typeof createFeatureHistory>;

/**
 * The versions of a feature's settings (docs/adr/0022-versions.md): the history, one version, the
 * difference between two, and a restore, which is a settings save like any other (the same rights,
 * checks, audit and announcements) whose settings are an older version's.
 */
export function createFeatureHistory(deps: {
  db: Database;
  versions: VersionsService;
  change: FeatureSettingsChange;
}) {
  const { db, versions, change } = deps;

  async function locate(principal: Principal, keys: FeatureKeys) {
    const found = await repo.findByKey(db, principal.organisationId, keys.projectKey, keys.featureKey);
    if (!found) throw new NotFoundError('feature', `${keys.projectKey}/${keys.featureKey}`);
    return { found, ref: settingsRef(principal.organisationId, found.feature.id) };
  }

  const kind = { schema: featureSettingsSnapshotSchema, describe: featureSettingsChanges };

  return {
    /** GET …/versions: the settings' history, newest first. */
    async page(
      principal: Principal,
      keys: FeatureKeys,
      query: { page: number; pageSize: number },
    ): Promise<VersionPage> {
      const { ref } = await locate(principal, keys);
      return versions.page(db, ref, query, null);
    },

    /** GET …/versions/{number}: one version of the settings with its snapshot. */
    async get(principal: Principal, keys: FeatureKeys, number: number): Promise<Version> {
      const { ref } = await locate(principal, keys);
      return versions.version(db, ref, number, null);
    },

    /** GET …/versions/{a}/diff/{b}: what turns version a of the settings into version b. */
    async diff(principal: Principal, keys: FeatureKeys, from: number, to: number): Promise<VersionDiff> {
      const { ref } = await locate(principal, keys);
      return versions.diff(db, ref, from, to, kind);
    },

    /**
     * POST …/versions/{number}/restore: new settings equal to version `number`'s, through the settings'
     * one write path; refused with 409 when the settings moved past `currentVersion`, already are that
     * version, or it names variants or a maintainer that cannot come back.
     */
    async restore(
      principal: Principal,
      keys: FeatureKeys,
      number: number,
      input: RestoreVersionInput,
    ): Promise<Feature> {
      const { found, ref } = await locate(principal, keys);
      const snapshot = await versions.snapshot(db, ref, number, kind.schema);
      return change(
        principal,
        keys.projectKey,
        found.feature.id,
        {
          origin: { source: 'restore', comment: input.comment },
          restore: { from: number, currentVersion: input.currentVersion, snapshot },
        },
        (before) => {
          if (sameSettings(before, snapshot)) {
            throw nothingToRestore(number);
          }
          // The key never changes: a version's key is the feature's.
          return { ...settingsOf(snapshot), key: before.key };
        },
      );
    },
  };
}
