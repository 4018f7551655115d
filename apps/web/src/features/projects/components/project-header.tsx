import { Button, Code, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { DisabledReason } from '../../../components/disabled-reason';
import { notifySuccess } from '../../../lib/notify';
import { LAST_PROJECT_MESSAGE, type Project } from '@vexil/core';
import { useDeleteProject } from '../../../entities/projects/api/delete-project';
import type { ProjectPlanLimits } from '../hooks/use-plan-limits';
import { confirmDeleteProject } from './delete-project-dialog';
import { PlanLimitNotice } from '../../../components/plan-limit-notice';
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
  // The server refuses to delete the last project (docs/product.md §5): say so before anyone tries.
  const deleteDenial = projects.length <= 1 ? LAST_PROJECT_MESSAGE : null;

  const onDelete = async () => {
    const confirmed = await confirmDeleteProject(project);
    if (!confirmed) return;
    try {
      await deleteProject.mutateAsync(project.key);
    } catch {
      // The generic toast shows the server's reason (e.g. another admin deleted the others meanwhile).
      return;
    }
    notifySuccess('Project deleted.');
    await navigate(adminPath('projects'));
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          {/* The name is the user's: one without spaces wraps rather than widening the page. */}
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {project.name}
          </Title>
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
        <DisabledReason denial={deleteDenial}>
          <Button
            variant="light"
            color="red"
            leftSection={<IconTrash size={16} aria-hidden="true" />}
            disabled={deleteDenial !== null}
            loading={deleteProject.isPending}
            onClick={() => void onDelete()}
          >
            Delete Project
          </Button>
        </DisabledReason>
      </Group>
      {limits.projectLimitMessage ? (
        <PlanLimitNotice id={PROJECT_LIMIT_ID} message={limits.projectLimitMessage} />
      ) : null}
    </Stack>
  );
}
