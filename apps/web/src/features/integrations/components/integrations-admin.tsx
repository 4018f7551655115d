import { Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { INTEGRATIONS_ADMINS_ONLY, isOrganisationAdmin } from '@vexil/core';
import { useSession } from '../../../lib/session';
import { Available } from './available-integrations';
import { InstallResult } from './install-result';
import { Installed } from './installed-integrations';

export { SLACK_INSTALL_FAILED_MESSAGE, SLACK_NOT_CONFIGURED_MESSAGE } from './available-integrations';
export {
  INTEGRATION_REMOVED_MESSAGE,
  INTEGRATION_REMOVE_FAILED_MESSAGE,
  NO_INTEGRATIONS_MESSAGE,
} from './installed-integrations';

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
