import { Anchor, Breadcrumbs, Button, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { errorReason, LoadError } from '../../../components/load-error';
import { NotFound } from '../../../components/not-found';
import { isApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { adminPath } from '../../../lib/paths';
import { useDeleteIntegration } from '../../../entities/integrations/api/delete-integration';
import { useJiraConnection } from '../../../entities/integrations/api/get-jira-connection';
import { useSaveJiraConnection } from '../../../entities/integrations/api/save-jira-connection';
import { INTEGRATION_REMOVE_FAILED_MESSAGE, INTEGRATION_REMOVED_MESSAGE } from './integrations-admin';
import { JiraConnectionForm } from './jira-connection-form';

export const JIRA_SAVED_MESSAGE = 'Jira connection saved.';

function Loading() {
  return (
    <Stack gap="md" maw={600} role="status" aria-label="Loading the Jira connection">
      {[0, 1, 2].map((n) => (
        <Stack key={n} gap={6}>
          <Skeleton height={12} width={120} />
          <Skeleton height={36} />
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * /admin/integrations/jira/{jiraIntegrationId} (docs/product.md §2): one Jira connection, to view and
 * change (address, e-mail, a new API token) or remove. An unknown id is Page not found.
 */
export function JiraIntegrationPage({ id }: { id: string }) {
  const connection = useJiraConnection(id);
  const save = useSaveJiraConnection();
  const remove = useDeleteIntegration();
  const navigate = useNavigate();

  if (connection.isError && isApiError(connection.error) && connection.error.status === 404)
    return <NotFound />;

  const onRemove = async () => {
    const confirmed = await confirm({
      title: 'Remove Jira',
      message: `Remove the Jira connection to ${connection.data?.baseUrl ?? 'this site'}? Its stored credentials are deleted, and issue keys show without their titles.`,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await remove.mutateAsync(id);
    } catch (error) {
      const reason = errorReason(error);
      notifyError(
        reason ? `${INTEGRATION_REMOVE_FAILED_MESSAGE}: ${reason}` : INTEGRATION_REMOVE_FAILED_MESSAGE,
      );
      return;
    }
    notifySuccess(INTEGRATION_REMOVED_MESSAGE);
    await navigate(adminPath('integrations'));
  };

  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to={adminPath('integrations')} size="sm">
          Integrations
        </Anchor>
        <Text size="sm">Jira</Text>
      </Breadcrumbs>
      <Stack gap={4} maw={720}>
        <Title order={2}>Jira</Title>
        {connection.data ? (
          <Text c="dimmed" size="sm">
            Added by {connection.data.member.name} on {formatDate(connection.data.createdDate)}. Vexil reads
            issue titles from this site as the account below; its credentials are stored encrypted.
          </Text>
        ) : null}
      </Stack>
      {connection.isPending ? (
        <Loading />
      ) : connection.isError ? (
        <LoadError
          title="We could not load the Jira connection."
          error={connection.error}
          retrying={connection.isFetching}
          onRetry={() => void connection.refetch()}
        />
      ) : (
        <JiraConnectionForm
          key={connection.data.id}
          connection={connection.data}
          submitLabel="Save"
          onSave={async (input) => {
            await save.mutateAsync({ id, input });
            notifySuccess(JIRA_SAVED_MESSAGE);
          }}
          actions={
            <Button
              variant="light"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden="true" />}
              loading={remove.isPending}
              onClick={() => void onRemove()}
            >
              Remove
            </Button>
          }
        />
      )}
    </Stack>
  );
}
