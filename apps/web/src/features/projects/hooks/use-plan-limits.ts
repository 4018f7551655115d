import { useFlag } from '../../../lib/flags';
import { useSession } from '../../../lib/session';
import { withinLimit } from '@vexil/core';

export type ProjectPlanLimits = {
  canCreateProject: boolean;
  /** Shown when a project may not be created, e.g. "Only 1 project(s) allowed.". */
  projectLimitMessage: string | null;
  canCreateEnvironment: boolean;
  environmentLimitMessage: string | null;
};

/**
 * docs/product.md §5/§9: with the billing flag on and a subscription, creating projects stops at the plan's
 * maxProjects and creating environments at maxEnvironments, counted across all projects. Without a
 * subscription (billing off, self-hosted) there are no limits.
 */
export function usePlanLimits(projects: readonly { environments: readonly unknown[] }[]): ProjectPlanLimits {
  const billing = useFlag('billing');
  const { subscription } = useSession();
  const limits = billing && subscription ? subscription.limits : null;
  const environmentCount = projects.reduce((total, project) => total + project.environments.length, 0);

  const canCreateProject = withinLimit(projects.length, limits?.maxProjects);
  const canCreateEnvironment = withinLimit(environmentCount, limits?.maxEnvironments);
  return {
    canCreateProject,
    projectLimitMessage: canCreateProject ? null : `Only ${limits?.maxProjects} project(s) allowed.`,
    canCreateEnvironment,
    environmentLimitMessage: canCreateEnvironment
      ? null
      : `Only ${limits?.maxEnvironments} environment(s) allowed.`,
  };
}
