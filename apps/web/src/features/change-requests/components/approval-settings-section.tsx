import { Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import type { Principal } from '@vexil/core';
import { useApprovalSettings } from '../../../entities/change-requests/api/get-approval-settings';
import { openApprovalSettingsModal } from './approval-settings-form';

type EnvironmentFacts = { key: string; name: string };

/** "Required, 2 approvals" or "Not required", as the environment's settings say. */
function SettingsSummary({ projectKey, environment }: { projectKey: string; environment: EnvironmentFacts }) {
  const settings = useApprovalSettings(projectKey, environment.key);
  if (settings.isError) {
    return (
      <Text size="sm" c="dimmed">
        Could not be loaded
      </Text>
    );
  }
  if (!settings.data) return <Skeleton height={18} width={140} aria-label={`Loading ${environment.name}`} />;
  const { required, minApprovals } = settings.data;
  return (
    <Group gap="xs" wrap="wrap">
      <Badge variant="light" color={required ? 'blue' : 'gray'} miw="max-content">
        {required ? 'Change requests required' : 'Direct changes'}
      </Badge>
      {required ? (
        <Text size="sm" c="dimmed">
          {minApprovals} approval{minApprovals === 1 ? '' : 's'}
        </Text>
      ) : null}
    </Group>
  );
}

/**
 * Admin › Projects › a project: each environment's approval settings (whether changes go through
 * change requests, and how many approvals they need), with a button opening them.
 */
export function ApprovalSettingsSection({
  project,
  user,
}: {
  project: { key: string; environments: EnvironmentFacts[] };
  user: Principal;
}) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="approval-settings-title">
      <div>
        <Title order={3} id="approval-settings-title">
          Change requests
        </Title>
        <Text size="sm" c="dimmed">
          Protect an environment: its changes are then drafted, reviewed and applied in change requests.
        </Text>
      </div>
      <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Approval settings">
        {project.environments.map((environment) => (
          <Paper component="li" key={environment.key} withBorder radius="md" p="sm">
            <Group justify="space-between" gap="sm">
              <Stack gap={4} miw={0}>
                <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {environment.name}
                </Text>
                <SettingsSummary projectKey={project.key} environment={environment} />
              </Stack>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconShieldCheck size={14} aria-hidden="true" />}
                aria-label={`Approval settings of ${environment.name}`}
                onClick={() => openApprovalSettingsModal({ projectKey: project.key, environment, user })}
              >
                Approval settings
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}
