import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRefreshSession } from '../../account/api/get-initial';
import type { Project } from '@vexil/core';
import { projectKeys } from './query-keys';

type ProjectList = Project[];

const byName = (a: Project, b: Project) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key);

/** The list with `project` added or replaced, in the server's order (by name). */
export function withProject(projects: ProjectList, project: Project): ProjectList {
  return [...projects.filter((p) => p.id !== project.id), project].sort(byName);
}

/** The list with `environment` added to, or replaced in, its project. */
export function withEnvironment(projects: ProjectList, environment: Project['environments'][number]) {
  return projects.map((project) => {
    if (project.key !== environment.projectKey) return project;
    const known = project.environments.some((e) => e.id === environment.id);
    return {
      ...project,
      environments: known
        ? project.environments.map((e) => (e.id === environment.id ? environment : e))
        : [...project.environments, environment],
    };
  });
}

/** The list without the environment `id`. */
export function withoutEnvironment(projects: ProjectList, id: string): ProjectList {
  return projects.map((project) => ({
    ...project,
    environments: project.environments.filter((e) => e.id !== id),
  }));
}

/**
 * After a write to projects or environments: applies the answer to the cached list at once (so the screen
 * never shows a project that is gone or misses one just made, e.g. right after navigating to it), then
 * refetches every projects query and the session, whose projects fill the top navigation and home page.
 */
export function useProjectsChanged() {
  const queryClient = useQueryClient();
  const refreshSession = useRefreshSession();
  return useCallback(
    async (update?: (projects: ProjectList) => ProjectList) => {
      if (update) {
        queryClient.setQueryData<ProjectList>(projectKeys.list(''), (old) => (old ? update(old) : old));
      }
      await Promise.all([queryClient.invalidateQueries({ queryKey: projectKeys.all }), refreshSession()]);
    },
    [queryClient, refreshSession],
  );
}
