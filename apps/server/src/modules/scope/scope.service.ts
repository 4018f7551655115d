import type { EnvironmentRef, ProjectRef } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { NotFoundError } from '../../errors';
import * as repo from './scope.repository';

export type Scope = ReturnType<typeof createScope>;

/**
 * The live project or environment a request names, found once for every module: by key or id,
 * always within the organisation, archived ones (or those of an archived project) not found. Each
 * lookup takes the executor so that it reads inside the caller's transaction when there is one.
 */
export function createScope(deps: { db: Database }) {
  const { db } = deps;
  return {
    /** The live project with this key; 404 otherwise. */
    async project(organisationId: string, key: string, executor: Executor = db): Promise<ProjectRef> {
      const project = await repo.projectByKey(executor, organisationId, key);
      if (!project) throw new NotFoundError('project', key);
      return project;
    },

    /** The live project with this id, or null. */
    findProjectById(organisationId: string, id: string, executor: Executor = db) {
      return repo.projectById(executor, organisationId, id);
    },

    /** The live environment of a live project by keys (or the environment's id); 404 otherwise. */
    async environment(
      organisationId: string,
      projectKey: string,
      keyOrId: string,
      executor: Executor = db,
    ): Promise<EnvironmentRef> {
      const environment = await repo.environmentByKey(executor, organisationId, projectKey, keyOrId);
      if (!environment) throw new NotFoundError('environment', `${projectKey}/${keyOrId}`);
      return environment;
    },

    /** The live environment with this id, or null. */
    findEnvironmentById(organisationId: string, id: string, executor: Executor = db) {
      return repo.environmentById(executor, organisationId, id);
    },

    /** The live environments of a project, oldest first: those whose SDK payload a feature change alters. */
    environmentsOf(
      organisationId: string,
      projectId: string,
      executor: Executor = db,
    ): Promise<EnvironmentRef[]> {
      return repo.environmentsOf(executor, organisationId, projectId);
    },
  };
}
