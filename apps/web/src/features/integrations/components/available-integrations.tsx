import type { ReactNode } from 'react';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconSettings } from '@tabler/icons-react';
import { Link } from 'react-router';
import { SLACK_INSTALL_ERRORS } from '@vexil/core';
import { DisabledReason } from '../../../components/disabled-reason';
import { errorReason } from '../../../components/load-error';
import { useFlag } from '../../../lib/flags';
import { notifyError } from '../../../lib/notify';
import { JIRA_CONNECT_PATH, jiraIntegrationPath } from '../../../lib/paths';
import { useIntegrationsAvailable } from '../../../entities/integrations/api/get-integrations-available';
import { useSlackInstallUrl } from '../../../entities/integrations/api/get-slack-install-url';

import { KINDS, KindIcon } from './integration-kinds';

export const SLACK_INSTALL_FAILED_MESSAGE = 'We could not start adding Slack';
export const SLACK_NOT_CONFIGURED_MESSAGE = SLACK_INSTALL_ERRORS['not-configured'];

/*
 * The Available section of Admin › Integrations (integrations-admin.tsx): the integrations an admin
 * can add, with Slack's Add button and Jira's Add link or settings.
 */

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
export function Available() {
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
