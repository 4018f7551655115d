import type { ReactNode } from 'react';
import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconSettings, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { type InitialPayload, type Integration } from '@vexil/core';
import { EmptyState } from '../../../components/empty-state';
import { errorReason, LoadError } from '../../../components/load-error';
import { TruncatedText } from '../../../components/truncated-text';
import { useFlag } from '../../../lib/flags';
import { formatDate } from '../../../lib/format';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { jiraIntegrationPath } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useDeleteIntegration } from '../../../entities/integrations/api/delete-integration';
import { useIntegrations } from '../../../entities/integrations/api/get-integrations';
import { filterSummary, openIntegrationFilters } from './integration-filters-form';

import { KINDS, KindIcon } from './integration-kinds';

export const NO_INTEGRATIONS_MESSAGE = 'No integrations are installed yet.';
export const INTEGRATION_REMOVED_MESSAGE = 'Integration removed.';
export const INTEGRATION_REMOVE_FAILED_MESSAGE = 'There was an error removing the integration';

/*
 * The Installed section of Admin › Integrations (integrations-admin.tsx): each installed integration
 * with who added it, Configure and Remove.
 */

/** A fact of an installed integration ("Channel", "Added by"...). */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" miw={0} align="flex-start">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" miw={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

function InstalledCard({
  integration,
  projects,
  removing,
  onRemove,
}: {
  integration: Integration;
  projects: InitialPayload['projects'];
  removing: boolean;
  onRemove: () => void;
}) {
  const jira = useFlag('jira-integration');
  const { name } = KINDS[integration.type];
  const where =
    integration.type === 'slack'
      ? integration.configuration.incomingWebhook.channel
      : integration.configuration.baseUrl;
  const label = `${name} ${where}`;
  const summary = integration.type === 'slack' ? filterSummary(integration.filters, projects) : null;
  return (
    <Paper withBorder radius="md" p="md" component="li" aria-label={label}>
      <Group justify="space-between" align="flex-start" gap="md">
        <Group gap="sm" align="flex-start" wrap="nowrap" miw={0} style={{ flex: '1 1 300px' }}>
          <KindIcon type={integration.type} />
          <Stack gap={4} miw={0}>
            <Group gap="xs" wrap="nowrap" miw={0}>
              <Text fw={600} style={{ flexShrink: 0 }}>
                {name}
              </Text>
              <TruncatedText text={where} size="sm" c="dimmed" />
            </Group>
            {integration.type === 'slack' && integration.configuration.teamName ? (
              <Fact label="Workspace">{integration.configuration.teamName}</Fact>
            ) : null}
            <Fact label="Added by">{`${integration.member.name}, ${formatDate(integration.createdDate)}`}</Fact>
            {summary ? (
              <>
                <Fact label="Projects">{summary.projects}</Fact>
                <Fact label="Environments">{summary.environments}</Fact>
                <Fact label="Events">{summary.events}</Fact>
              </>
            ) : null}
          </Stack>
        </Group>
        <Group gap="xs">
          {integration.type === 'slack' ? (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconSettings size={14} aria-hidden="true" />}
              aria-label={`Configure ${label}`}
              onClick={() => openIntegrationFilters(integration, `Slack ${where}`, projects)}
            >
              Configure
            </Button>
          ) : jira ? (
            <Button
              size="xs"
              variant="default"
              component={Link}
              to={jiraIntegrationPath(integration.id)}
              leftSection={<IconSettings size={14} aria-hidden="true" />}
              aria-label={`Configure ${label}`}
            >
              Configure
            </Button>
          ) : null}
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconTrash size={14} aria-hidden="true" />}
            aria-label={`Remove ${label}`}
            loading={removing}
            onClick={onRemove}
          >
            Remove
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

export function Installed() {
  const { projects } = useSession();
  const list = useIntegrations();
  const remove = useDeleteIntegration();

  const onRemove = async (integration: Integration) => {
    const { name } = KINDS[integration.type];
    const confirmed = await confirm({
      title: `Remove ${name}`,
      message:
        integration.type === 'slack'
          ? `Remove the Slack integration posting to ${integration.configuration.incomingWebhook.channel}? Vexil stops posting there at once.`
          : `Remove the Jira connection to ${integration.configuration.baseUrl}? Its stored credentials are deleted, and issue keys show without their titles.`,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await remove.mutateAsync(integration.id);
    } catch (error) {
      const reason = errorReason(error);
      notifyError(
        reason ? `${INTEGRATION_REMOVE_FAILED_MESSAGE}: ${reason}` : INTEGRATION_REMOVE_FAILED_MESSAGE,
      );
      return;
    }
    notifySuccess(INTEGRATION_REMOVED_MESSAGE);
  };

  let body: ReactNode;
  if (list.isPending) {
    body = (
      <Stack gap="sm" role="status" aria-label="Loading integrations">
        <Skeleton height={96} radius="md" />
        <Skeleton height={96} radius="md" />
      </Stack>
    );
  } else if (list.isError) {
    body = (
      <LoadError
        title="We could not load the integrations."
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (list.data.length === 0) {
    body = (
      <Paper withBorder radius="md">
        <EmptyState py="lg" maw={460} gap="xs">
          <Text fw={500}>{NO_INTEGRATIONS_MESSAGE}</Text>
          <Text size="sm" c="dimmed">
            Add one above: it shows here with who added it.
          </Text>
        </EmptyState>
      </Paper>
    );
  } else {
    body = (
      <Stack
        component="ul"
        gap="sm"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-label="Installed integrations"
      >
        {list.data.map((integration) => (
          <InstalledCard
            key={integration.id}
            integration={integration}
            projects={projects}
            removing={remove.isPending && remove.variables === integration.id}
            onRemove={() => void onRemove(integration)}
          />
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby="installed-integrations">
      <Title order={3} id="installed-integrations">
        Installed
      </Title>
      {body}
    </Stack>
  );
}
