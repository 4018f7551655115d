import type { EnvironmentRef, ProjectRef } from '@vexil/core';
import type { Executor } from '../../db/client';
import { NotFoundError } from '../../errors';
import * as repo from './scope.repository';

export type Scope = ReturnType<typeof createScope>;

/**
 * The live project or environment a request names, found once for every module: by key or id,
 * always within the organisation, archived ones (or those of an archived project) not found. Each
 * lookup takes the executor so that it reads inside the caller's transaction when there is one.
 */
export function createScope() {
  return {
    /** The live project with this key; 404 otherwise. */
    async project(executor: Executor, organisationId: string, key: string): Promise<ProjectRef> {
      const project = await repo.projectByKey(executor, organisationId, key);
      if (!project) throw new NotFoundError('project', key);
      return project;
    },

    /** The live project with this id, or null. */
    findProjectById(executor: Executor, organisationId: string, id: string) {
      return repo.projectById(executor, organisationId, id);
    },

    /** The live environment of a live project by keys (or the environment's id); 404 otherwise. */
    async environment(
      executor: Executor,
      organisationId: string,
      projectKey: string,
      keyOrId: string,
    ): Promise<EnvironmentRef> {
      const environment = await repo.environmentByKey(executor, organisationId, projectKey, keyOrId);
      if (!environment) throw new NotFoundError('environment', `${projectKey}/${keyOrId}`);
      return environment;
    },

    /** The live environment with this id, or null. */
    findEnvironmentById(executor: Executor, organisationId: string, id: string) {
      return repo.environmentById(executor, organisationId, id);
    },

    /** The live environments of a project, oldest first: those whose SDK payload a feature change alters. */
    environmentsOf(executor: Executor, organisationId: string, projectId: string): Promise<EnvironmentRef[]> {
      return repo.environmentsOf(executor, organisationId, projectId);
    },
  };
}
