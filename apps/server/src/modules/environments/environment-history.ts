import type { ChangeEvent } from '../../lib/change-events';
import {
  environmentChanges,
  environmentSnapshotSchema,
  sameJson,
  type Environment,
  type RestoreVersionInput,
  type Version,
  type VersionDiff,
  type VersionPage,
} from '@vexil/core';
import type { Database } from '../../db/client';
import { NotFoundError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import { nothingToRestore, type VersionsService } from '../versions/versions.service';
import type { EnvironmentChange } from './environment-change';
import { environmentRef } from './environment-versions';
import * as repo from './environments.repository';
import type { EnvironmentRecord } from './environments.types';

/** An environment, named as its history routes name it. */
export type EnvironmentKeys = { projectKey: string; environmentKey: string };

export type EnvironmentHistory = ReturnType<typeof createEnvironmentHistory>;

/**
 * The versions of an environment's settings (docs/adr/0022-versions.md): the history, one version, the
 * difference between two, and a restore, which is a settings save like any other (organisation-admin
 * rights, the same checks, audit and announcement to the SDK payloads) whose settings are an older
 * version's.
 */
export function createEnvironmentHistory(deps: {
  db: Database;
  versions: VersionsService;
  change: EnvironmentChange;
  toEnvironment: (principal: Principal, row: EnvironmentRecord, projectKey: string) => Environment;
  /** Tells this instance's SDK payloads and live dashboards that the environment changed (after the commit). */
  announce: (changed: ChangeEvent) => void;
}) {
  const { db, versions, change } = deps;

  async function locate(principal: Principal, keys: EnvironmentKeys) {
    const found = await repo.findByProjectKey(
      db,
      principal.organisationId,
      keys.projectKey,
      keys.environmentKey,
    );
    if (!found) throw new NotFoundError('environment', `${keys.projectKey}/${keys.environmentKey}`);
    return { found, ref: environmentRef(principal.organisationId, found.environment.id) };
  }

  const kind = { schema: environmentSnapshotSchema, describe: environmentChanges };

  return {
    /** GET …/versions: the settings' history, newest first. */
    async page(
      principal: Principal,
      keys: EnvironmentKeys,
      query: { page: number; pageSize: number },
    ): Promise<VersionPage> {
      const { ref } = await locate(principal, keys);
      return versions.page(db, ref, query, null);
    },

    /** GET …/versions/{number}: one version of the settings with its snapshot. */
    async get(principal: Principal, keys: EnvironmentKeys, number: number): Promise<Version> {
      const { ref } = await locate(principal, keys);
      return versions.version(db, ref, number, null);
    },

    /** GET …/versions/{a}/diff/{b}: what turns version a of the settings into version b. */
    async diff(principal: Principal, keys: EnvironmentKeys, from: number, to: number): Promise<VersionDiff> {
      const { ref } = await locate(principal, keys);
      return versions.diff(db, ref, from, to, kind);
    },

    /**
     * POST …/versions/{number}/restore: the settings version `number` had, through the settings' one
     * write path (organisation admins); 409 when they moved past `currentVersion` or already are that
     * version.
     */
    async restore(
      principal: Principal,
      keys: EnvironmentKeys,
      number: number,
      input: RestoreVersionInput,
    ): Promise<Environment> {
      const { found, ref } = await locate(principal, keys);
      const snapshot = await versions.snapshot(db, ref, number, kind.schema);
      const id = found.environment.id;
      const row = await change(
        principal,
        id,
        {
          origin: { source: 'restore', comment: input.comment },
          projectKey: found.project.key,
          restore: { from: number, currentVersion: input.currentVersion },
        },
        (before) => {
          // The key never changes: a version's key is the environment's.
          const restored = { ...snapshot, key: before.key };
          if (sameJson(before, restored)) {
            throw nothingToRestore(number);
          }
          return restored;
        },
      );
      deps.announce(row.changed);
      return deps.toEnvironment(principal, row.after, row.projectKey);
    },
  };
}
