import { usePlanLimit } from '../../../entities/billing/hooks/use-plan-limit';

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
  const environmentCount = projects.reduce((total, project) => total + project.environments.length, 0);
  const project = usePlanLimit('maxProjects', projects.length);
  const environment = usePlanLimit('maxEnvironments', environmentCount);
  return {
    canCreateProject: project.allowed,
    projectLimitMessage: project.message,
    canCreateEnvironment: environment.allowed,
    environmentLimitMessage: environment.message,
  };
}
