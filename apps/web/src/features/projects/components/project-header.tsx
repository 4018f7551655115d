import { Button, Code, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { confirm } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import type { Project } from '@vexil/core';
import { useDeleteProject } from '../../../entities/projects/api/delete-project';
import type { ProjectPlanLimits } from '../hooks/use-plan-limits';
import { PlanLimitNotice } from './plan-limit-notice';
import { openProjectForm } from './project-form';
import { adminPath } from '../../../lib/paths';

type ProjectHeaderProps = {
  project: Project;
  projects: readonly Project[];
  limits: ProjectPlanLimits;
};

const PROJECT_LIMIT_ID = 'project-plan-limit';

/**
 * The selected project's name and key, the dropdown that switches project, and New / Update / Delete
 * Project (docs/product.md §2 "Project admin").
 */
export function ProjectHeader({ project, projects, limits }: ProjectHeaderProps) {
  const navigate = useNavigate();
  const deleteProject = useDeleteProject();
  const existingKeys = projects.map((p) => p.key);

  const onDelete = async () => {
    const confirmed = await confirm({
      title: 'Delete Project',
      message: `Delete the project "${project.name}"? This deletes its environments and features and cannot be undone.`,
      confirmLabel: 'Delete Project',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deleteProject.mutateAsync(project.key);
    } catch {
      // The generic toast shows the server's reason (e.g. "You must have at least one project.").
      return;
    }
    notifySuccess('Project deleted.');
    await navigate(adminPath('projects'));
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={2}>{project.name}</Title>
          <Group gap={6}>
            <Text size="sm" c="dimmed">
              Key
            </Text>
            <Code aria-label={`Project key ${project.key}`}>{project.key}</Code>
          </Group>
        </Stack>
        <Select
          label="Project"
          w={{ base: '100%', xs: 280 }}
          data={projects.map((p) => ({ value: p.key, label: `${p.name} (${p.key})` }))}
          value={project.key}
          allowDeselect={false}
          searchable={projects.length > 8}
          comboboxProps={{ withinPortal: true }}
          onChange={(key) => {
            if (key && key !== project.key) void navigate(adminPath('projects', key));
          }}
        />
      </Group>
      <Group gap="sm">
        <Button
          leftSection={<IconPlus size={16} aria-hidden="true" />}
          disabled={!limits.canCreateProject}
          aria-describedby={limits.canCreateProject ? undefined : PROJECT_LIMIT_ID}
          onClick={() => openProjectForm({ existingKeys })}
        >
          New Project
        </Button>
        <Button
          variant="default"
          leftSection={<IconPencil size={16} aria-hidden="true" />}
          onClick={() => openProjectForm({ project, existingKeys })}
        >
          Update Project
        </Button>
        <Button
          variant="light"
          color="red"
          leftSection={<IconTrash size={16} aria-hidden="true" />}
          loading={deleteProject.isPending}
          onClick={() => void onDelete()}
        >
          Delete Project
        </Button>
      </Group>
      {limits.projectLimitMessage ? (
        <PlanLimitNotice id={PROJECT_LIMIT_ID} message={limits.projectLimitMessage} />
      ) : null}
    </Stack>
  );
}
