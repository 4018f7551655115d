import type { ReactNode } from 'react';
import {
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconBrandJira, IconBrandSlack, IconPlus, IconSettings, IconTrash } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import {
  INTEGRATIONS_ADMINS_ONLY,
  SLACK_INSTALL_ERRORS,
  isOrganisationAdmin,
  type InitialPayload,
  type Integration,
} from '@vexil/core';
import { DisabledReason } from '../../../components/disabled-reason';
import { EmptyState } from '../../../components/empty-state';
import { errorReason, LoadError } from '../../../components/load-error';
import { TruncatedText } from '../../../components/truncated-text';
import { useFlag } from '../../../lib/flags';
import { formatDate } from '../../../lib/format';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { JIRA_CONNECT_PATH, jiraIntegrationPath } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useDeleteIntegration } from '../../../entities/integrations/api/delete-integration';
import { useIntegrations } from '../../../entities/integrations/api/get-integrations';
import { useIntegrationsAvailable } from '../../../entities/integrations/api/get-integrations-available';
import { useSlackInstallUrl } from '../../../entities/integrations/api/get-slack-install-url';
import { filterSummary, openIntegrationFilters } from './integration-filters-form';
import { InstallResult } from './install-result';

export const NO_INTEGRATIONS_MESSAGE = 'No integrations are installed yet.';
export const INTEGRATION_REMOVED_MESSAGE = 'Integration removed.';
export const INTEGRATION_REMOVE_FAILED_MESSAGE = 'There was an error removing the integration';
export const SLACK_INSTALL_FAILED_MESSAGE = 'We could not start adding Slack';
export const SLACK_NOT_CONFIGURED_MESSAGE = SLACK_INSTALL_ERRORS['not-configured'];

const KINDS = {
  slack: { name: 'Slack', icon: IconBrandSlack, color: 'grape' },
  jira: { name: 'Jira', icon: IconBrandJira, color: 'blue' },
} as const;

function KindIcon({ type }: { type: keyof typeof KINDS }) {
  const { icon: Icon, color } = KINDS[type];
  return (
    <ThemeIcon variant="light" color={color} size={40} radius="md" aria-hidden="true">
      <Icon size={24} />
    </ThemeIcon>
  );
}

/** One available integration: what it does and its Add button (or link). */
function AvailableCard({
  type,
  description,
  action,
}: {
  type: keyof typeof KINDS;
  description: string;
  action: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="md" component="li" aria-label={KINDS[type].name}>
      {/* The action goes below the description when both do not fit side by side (a phone). */}
      <Group justify="space-between" align="flex-start" gap="md">
        <Group gap="sm" align="flex-start" wrap="nowrap" miw={0} style={{ flex: '1 1 260px' }}>
          <KindIcon type={type} />
          <Stack gap={2} miw={0}>
            <Text fw={600}>{KINDS[type].name}</Text>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
        </Group>
        {action}
      </Group>
    </Paper>
  );
}

function AddSlack({ configured }: { configured: boolean | undefined }) {
  const install = useSlackInstallUrl();

  const addSlack = async () => {
    let url: string;
    try {
      url = await install.mutateAsync();
    } catch (error) {
      const reason = errorReason(error);
      notifyError(reason ? `${SLACK_INSTALL_FAILED_MESSAGE}: ${reason}` : SLACK_INSTALL_FAILED_MESSAGE);
      return;
    }
    // Slack's authorisation page; Slack sends the admin back through the server to this tab.
    window.location.assign(url);
  };

  return (
    <DisabledReason denial={configured === false ? SLACK_NOT_CONFIGURED_MESSAGE : null}>
      <Button
        leftSection={<IconPlus size={16} aria-hidden="true" />}
        aria-label="Add Slack"
        // Until the server says whether it has a Slack app, the button waits.
        disabled={configured !== true}
        loading={install.isPending}
        onClick={() => void addSlack()}
        style={{ flexShrink: 0 }}
      >
        Add
      </Button>
    </DisabledReason>
  );
}

function JiraAction({ connectedId }: { connectedId: string | null }) {
  if (connectedId) {
    return (
      <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
        <Badge color="teal" variant="light">
          Connected
        </Badge>
        <Button
          component={Link}
          to={jiraIntegrationPath(connectedId)}
          variant="default"
          size="xs"
          leftSection={<IconSettings size={14} aria-hidden="true" />}
          aria-label="Jira settings"
        >
          Settings
        </Button>
      </Group>
    );
  }
  return (
    <Button
      component={Link}
      to={JIRA_CONNECT_PATH}
      variant="default"
      leftSection={<IconPlus size={16} aria-hidden="true" />}
      aria-label="Add Jira"
      style={{ flexShrink: 0 }}
    >
      Add
    </Button>
  );
}

/**
 * Slack, with Add once the server says it has a Slack app, and Jira (flag jira-integration; once per
 * organisation): its Add link, or its settings once connected.
 */
function Available() {
  const jiraFlag = useFlag('jira-integration');
  const available = useIntegrationsAvailable();
  // A failed answer leaves Add on: the install call then says what is wrong.
  const slackConfigured = available.isError ? true : available.data?.slack.configured;
  const jira = available.data?.jira;
  const showJira = jiraFlag && (available.isError || jira?.enabled === true);

  return (
    <Stack gap="sm" component="section" aria-labelledby="available-integrations">
      <Title order={3} id="available-integrations">
        Available
      </Title>
      <SimpleGrid
        cols={{ base: 1, md: 2 }}
        spacing="sm"
        component="ul"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
      >
        <AvailableCard
          type="slack"
          description="Post feature changes to a Slack channel: toggles, targeting, new and deleted features, experiments."
          action={<AddSlack configured={slackConfigured} />}
        />
        {showJira ? (
          <AvailableCard
            type="jira"
            description="Link features to Jira issues: their titles show on the feature page, and a feature can be created from an issue."
            action={<JiraAction connectedId={jira?.connectedId ?? null} />}
          />
        ) : null}
      </SimpleGrid>
    </Stack>
  );
}

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

function Installed() {
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

function Heading() {
  return (
    <Stack gap={4} maw={720}>
      <Title order={2}>Integrations</Title>
      <Text c="dimmed" size="sm">
        Connect Vexil to the tools your team uses. Outgoing webhooks are set per project, under Projects.
      </Text>
    </Stack>
  );
}

/**
 * Admin › Integrations (docs/product.md §2): the integrations to add (Slack's Add button; Jira's Add link
 * only with flag jira-integration) and those installed, with who added them, Configure and Remove. Coming
 * back from Slack, the tab says how the installation went. Only organisation admins manage integrations.
 */
export function IntegrationsAdmin() {
  const { principalUser } = useSession();
  const [searchParams, setSearchParams] = useSearchParams();
  if (!isOrganisationAdmin(principalUser)) {
    return (
      <Stack gap="xs">
        <Title order={2}>Integrations</Title>
        <Text c="dimmed">{INTEGRATIONS_ADMINS_ONLY}</Text>
      </Stack>
    );
  }
  const installed = searchParams.get('installed');
  const error = searchParams.get('error');
  const dismiss = () =>
    setSearchParams(
      (params) => {
        params.delete('installed');
        params.delete('error');
        return params;
      },
      { replace: true },
    );

  return (
    <Stack gap="xl">
      <Heading />
      <InstallResult installed={installed} error={error} onClose={dismiss} />
      <Available />
      <Installed />
    </Stack>
  );
}
