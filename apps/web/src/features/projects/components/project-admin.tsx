import type { ReactNode } from 'react';
import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { NotFound } from '../../../components/not-found';
import { useSession } from '../../../lib/session';
import { denialOf, type Project } from '@vexil/core';
import { useProjects } from '../../../entities/projects/api/get-projects';
import { usePlanLimits, type ProjectPlanLimits } from '../hooks/use-plan-limits';
import { EnvironmentList } from './environment-list';
import { PlanLimitNotice } from '../../../components/plan-limit-notice';
import { openProjectForm } from './project-form';
import { ProjectHeader } from './project-header';

export const NO_PROJECTS_MESSAGE = "You have no projects. Let's set one up now.";

function ProjectAdminSkeleton() {
  return (
    <Stack gap="md" role="status" aria-busy="true" aria-label="Loading projects">
      <Skeleton height={32} width="40%" />
      <Skeleton height={20} width="20%" />
      <Skeleton height={36} width="60%" />
      <Skeleton height={160} />
    </Stack>
  );
}

function NoProjects({ limits }: { limits: ProjectPlanLimits }) {
  return (
    <Stack gap="md" align="flex-start">
      <Text size="lg">{NO_PROJECTS_MESSAGE}</Text>
      <Button
        leftSection={<IconPlus size={16} aria-hidden="true" />}
        disabled={!limits.canCreateProject}
        onClick={() => openProjectForm({ existingKeys: [] })}
      >
        New Project
      </Button>
      {limits.projectLimitMessage ? (
        <PlanLimitNotice id="project-plan-limit" message={limits.projectLimitMessage} />
      ) : null}
    </Stack>
  );
}

/** More sections of a project's page, below its environments, that the route composes in (webhooks). */
export type ProjectSections = (project: Project) => ReactNode;

function ProjectAdminScreen({
  projectKey,
  sections,
}: {
  projectKey: string | undefined;
  sections: ProjectSections | undefined;
}) {
  const projects = useProjects();
  const list: Project[] = projects.data ?? [];
  const limits = usePlanLimits(list);

  if (projects.isPending) return <ProjectAdminSkeleton />;
  if (projects.isError) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
        <Group justify="space-between" gap="sm">
          <Text size="sm">We could not load the projects.</Text>
          <Button
            size="xs"
            variant="default"
            loading={projects.isFetching}
            onClick={() => void projects.refetch()}
          >
            Try again
          </Button>
        </Group>
      </Alert>
    );
  }

  // docs/product.md §8: a project that does not load is a page not found.
  const project = projectKey === undefined ? list[0] : list.find((p) => p.key === projectKey);
  if (projectKey !== undefined && !project) return <NotFound />;
  if (!project) return <NoProjects limits={limits} />;

  return (
    <Stack gap="xl">
      <ProjectHeader project={project} projects={list} limits={limits} />
      <EnvironmentList project={project} limits={limits} />
      {sections?.(project)}
    </Stack>
  );
}

/**
 * docs/product.md §2 "Project admin", /admin/projects and /admin/projects/{projectKey}: the selected project (the
 * first by name when none is named) with its environments. Only organisation admins manage projects.
 */
export function ProjectAdmin({
  projectKey,
  sections,
}: {
  projectKey?: string | undefined;
  sections?: ProjectSections;
}) {
  const { principalUser } = useSession();
  const denial = denialOf(principalUser, 'update', { type: 'project' });
  if (denial) return <Text>{denial.message}</Text>;
  return <ProjectAdminScreen projectKey={projectKey} sections={sections} />;
}
