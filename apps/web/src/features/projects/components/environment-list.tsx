import { Anchor, Badge, Button, Code, ColorSwatch, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconDeviceLaptop, IconKey, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { openApiKeysModal } from '../../../components/api-keys-modal';
import { confirm } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import type { Environment, Project } from '@vexil/core';
import { useDeleteEnvironment } from '../../../entities/environments/api/delete-environment';
import { useRotateEnvironmentKey } from '../../../entities/environments/api/rotate-environment-key';
import type { ProjectPlanLimits } from '../hooks/use-plan-limits';
import { openEnvironmentForm } from './environment-form';
import { PlanLimitNotice } from './plan-limit-notice';

const ENVIRONMENT_LIMIT_ID = 'environment-plan-limit';

function EnvironmentRow({ environment }: { environment: Environment }) {
  const deleteEnvironment = useDeleteEnvironment();
  const rotateKey = useRotateEnvironmentKey();
  const { name } = environment;

  const onDelete = async () => {
    const confirmed = await confirm({
      title: 'Delete Environment',
      message: `Delete the environment "${name}"? Its feature states and targeting rules are deleted with it.`,
      confirmLabel: 'Delete Environment',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deleteEnvironment.mutateAsync(environment.id);
    } catch {
      // The generic toast shows the server's reason (e.g. "You must have at least one environment.").
      return;
    }
    notifySuccess('Environment deleted.');
  };

  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="sm" wrap="nowrap">
          <ColorSwatch
            color={environment.color}
            size={16}
            role="img"
            aria-label={`Colour ${environment.color}`}
          />
          <Text fw={500}>{name}</Text>
          {environment.local ? (
            <IconDeviceLaptop size={18} role="img" aria-label="Local environment" />
          ) : null}
          {environment.production ? (
            <Badge color="red" variant="light" size="sm">
              Production
            </Badge>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td>
        <Code>{environment.key}</Code>
      </Table.Td>
      <Table.Td>
        {environment.url ? (
          <Anchor href={environment.url} target="_blank" rel="noopener noreferrer" size="sm">
            {environment.url}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            (no url set)
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconKey size={14} aria-hidden="true" />}
            aria-label={`Api Keys of ${name}`}
            onClick={() =>
              openApiKeysModal({
                environment,
                onRotate: (kind) => rotateKey.mutateAsync({ id: environment.id, kind }),
              })
            }
          >
            Api Keys
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPencil size={14} aria-hidden="true" />}
            aria-label={`Update ${name}`}
            onClick={() => openEnvironmentForm({ projectKey: environment.projectKey, environment })}
          >
            Update
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconTrash size={14} aria-hidden="true" />}
            aria-label={`Delete ${name}`}
            loading={deleteEnvironment.isPending}
            onClick={() => void onDelete()}
          >
            Delete
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** docs/product.md §2 "Project admin": the project's environments with Api Keys, Update and Delete, and New Environment. */
export function EnvironmentList({ project, limits }: { project: Project; limits: ProjectPlanLimits }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="environments-title">
      <Group justify="space-between" align="center">
        <Title order={3} id="environments-title">
          Environments
        </Title>
        <Button
          leftSection={<IconPlus size={16} aria-hidden="true" />}
          disabled={!limits.canCreateEnvironment}
          aria-describedby={limits.canCreateEnvironment ? undefined : ENVIRONMENT_LIMIT_ID}
          onClick={() => openEnvironmentForm({ projectKey: project.key })}
        >
          New Environment
        </Button>
      </Group>
      {limits.environmentLimitMessage ? (
        <PlanLimitNotice id={ENVIRONMENT_LIMIT_ID} message={limits.environmentLimitMessage} />
      ) : null}
      {project.environments.length === 0 ? (
        <Text c="dimmed">This project has no environments yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>URL</Table.Th>
                <Table.Th ta="right">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {project.environments.map((environment) => (
                <EnvironmentRow key={environment.id} environment={environment} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
