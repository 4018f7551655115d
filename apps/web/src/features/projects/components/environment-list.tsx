import {
  Anchor,
  Badge,
  Button,
  Code,
  ColorSwatch,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconDeviceLaptop, IconKey, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { openApiKeysModal } from '../../../components/api-keys-modal';
import { DisabledReason } from '../../../components/disabled-reason';
import { TruncatedText } from '../../../components/truncated-text';
import { confirm } from '../../../lib/modals';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { notifySuccess } from '../../../lib/notify';
import { LAST_ENVIRONMENT_MESSAGE, type Environment, type Project } from '@vexil/core';
import { useDeleteEnvironment } from '../../../entities/environments/api/delete-environment';
import { useRotateEnvironmentKey } from '../../../entities/environments/api/rotate-environment-key';
import type { ProjectPlanLimits } from '../hooks/use-plan-limits';
import { openEnvironmentForm } from './environment-form';
import { PlanLimitNotice } from '../../../components/plan-limit-notice';

const ENVIRONMENT_LIMIT_ID = 'environment-plan-limit';

/** The environment's colour, name and marks (local, production). */
function EnvironmentName({ environment }: { environment: Environment }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <ColorSwatch
        color={environment.color}
        size={16}
        role="img"
        aria-label={`Colour ${environment.color}`}
        style={{ flexShrink: 0 }}
      />
      <TruncatedText text={environment.name} size="md" fw={500} />
      {environment.local ? (
        <IconDeviceLaptop size={18} role="img" aria-label="Local environment" style={{ flexShrink: 0 }} />
      ) : null}
      {environment.production ? (
        // Its whole word, never squeezed by a long name into a pink dot.
        <Badge color="red" variant="light" size="sm" style={{ flexShrink: 0 }} miw="max-content">
          Production
        </Badge>
      ) : null}
    </Group>
  );
}

function EnvironmentUrl({ environment }: { environment: Environment }) {
  return environment.url ? (
    <TruncatedText
      text={environment.url}
      render={(target) => (
        <Anchor href={environment.url} target="_blank" rel="noopener noreferrer" size="sm" {...target}>
          {environment.url}
        </Anchor>
      )}
    />
  ) : (
    <Text size="sm" c="dimmed">
      (no url set)
    </Text>
  );
}

/**
 * Api Keys, Update and Delete of an environment. `last`: the project's only environment, which the
 * server refuses to delete (docs/product.md §5); its Delete is disabled with the server's reason rather
 * than confirmed and then refused. `wrap`: on a phone's card the buttons wrap instead of overflowing.
 */
function EnvironmentActions({
  environment,
  last,
  wrap = false,
}: {
  environment: Environment;
  last: boolean;
  wrap?: boolean;
}) {
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
      // The generic toast shows the server's reason (e.g. another admin deleted the others meanwhile).
      return;
    }
    notifySuccess('Environment deleted.');
  };

  return (
    <Group gap="xs" justify={wrap ? 'flex-start' : 'flex-end'} wrap={wrap ? 'wrap' : 'nowrap'}>
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
      <DisabledReason denial={last ? LAST_ENVIRONMENT_MESSAGE : null}>
        <Button
          size="xs"
          variant="light"
          color="red"
          leftSection={<IconTrash size={14} aria-hidden="true" />}
          aria-label={`Delete ${name}`}
          disabled={last}
          loading={deleteEnvironment.isPending}
          onClick={() => void onDelete()}
        >
          Delete
        </Button>
      </DisabledReason>
    </Group>
  );
}

function EnvironmentRow({ environment, last }: { environment: Environment; last: boolean }) {
  return (
    <Table.Tr>
      <Table.Td>
        <EnvironmentName environment={environment} />
      </Table.Td>
      <Table.Td>
        <TruncatedText
          text={environment.key}
          render={(target) => <Code {...target}>{environment.key}</Code>}
        />
      </Table.Td>
      <Table.Td>
        <EnvironmentUrl environment={environment} />
      </Table.Td>
      <Table.Td>
        <EnvironmentActions environment={environment} last={last} />
      </Table.Td>
    </Table.Tr>
  );
}

/** On a phone, a card per environment: the row's name, marks, key, url and buttons, stacked. */
function EnvironmentCard({ environment, last }: { environment: Environment; last: boolean }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={6}>
        <EnvironmentName environment={environment} />
        <TruncatedText
          text={environment.key}
          render={(target) => (
            <Code w="fit-content" maw="100%" {...target}>
              {environment.key}
            </Code>
          )}
        />
        <EnvironmentUrl environment={environment} />
        <EnvironmentActions environment={environment} last={last} wrap />
      </Stack>
    </Paper>
  );
}

/** docs/product.md §2 "Project admin": the project's environments with Api Keys, Update and Delete, and New Environment. */
export function EnvironmentList({ project, limits }: { project: Project; limits: ProjectPlanLimits }) {
  const narrow = useNarrowScreen();
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
      ) : narrow ? (
        // Below `sm` the table would scroll sideways, its buttons out of sight: cards instead.
        <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Environments">
          {project.environments.map((environment) => (
            <EnvironmentCard
              key={environment.id}
              environment={environment}
              last={project.environments.length === 1}
            />
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={880}>
          <Table
            // Fixed: a long name, key or url is cut (with a tooltip) rather than pushing the buttons away.
            layout="fixed"
            verticalSpacing="sm"
            highlightOnHover
            aria-label="Environments"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th w="18%">Key</Table.Th>
                <Table.Th w="22%">URL</Table.Th>
                <Table.Th w={350} ta="right">
                  Actions
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {project.environments.map((environment) => (
                <EnvironmentRow
                  key={environment.id}
                  environment={environment}
                  last={project.environments.length === 1}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
