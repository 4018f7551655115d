import { useState, type ReactNode } from 'react';
import { Badge, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { EmptyState } from '../../../components/empty-state';
import { errorReason, LoadError } from '../../../components/load-error';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDeleteSsoConnection } from '../../../entities/sso/api/delete-sso-connection';
import { useSsoSettings } from '../../../entities/sso/api/get-sso-settings';
import { SsoForm } from './sso-form';

export const SSO_NOT_SET_UP_MESSAGE = 'Single sign-on is not set up.';
export const SSO_REMOVED_MESSAGE = 'Single sign-on removed.';
export const SSO_REMOVE_FAILED_MESSAGE = 'There was an error removing single sign-on';

function Loading() {
  return (
    <Stack gap="md" maw={680} data-testid="sso-loading">
      {[0, 1, 2, 3].map((n) => (
        <Stack key={n} gap={6}>
          <Skeleton height={12} width={140} />
          <Skeleton height={36} />
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * Admin › Single sign-on (docs/product.md §2): the organisation's OpenID Connect connection. Until one
 * is set up, an explanation and "Set up single sign-on"; then the form, with Save and, behind a
 * confirmation, Remove.
 */
export function SsoAdmin() {
  const settings = useSsoSettings();
  const remove = useDeleteSsoConnection();
  const [settingUp, setSettingUp] = useState(false);
  const connection = settings.data?.connection ?? null;

  const removeConnection = async () => {
    if (!connection) return;
    const confirmed = await confirm({
      title: 'Remove single sign-on',
      message: `Remove the connection to ${connection.displayName}? Nobody can sign in with it any more: members sign in with their password. Those who joined through single sign-on have none yet, and can choose one with “Forgot password?” on the sign-in page.`,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await remove.mutateAsync();
    } catch (error) {
      const reason = errorReason(error);
      notifyError(reason ? `${SSO_REMOVE_FAILED_MESSAGE}: ${reason}` : SSO_REMOVE_FAILED_MESSAGE);
      return;
    }
    setSettingUp(false);
    notifySuccess(SSO_REMOVED_MESSAGE);
  };

  let body: ReactNode;
  if (settings.isPending) {
    body = <Loading />;
  } else if (settings.isError) {
    body = (
      <LoadError
        title="We could not load the single sign-on settings."
        error={settings.error}
        retrying={settings.isFetching}
        onRetry={() => void settings.refetch()}
      />
    );
  } else if (connection || settingUp) {
    body = (
      <SsoForm
        // A new form once the connection is removed, so that nothing of it stays in the fields.
        key={connection ? 'stored' : 'new'}
        connection={connection}
        redirectUri={settings.data.redirectUri}
        onCancel={connection ? undefined : () => setSettingUp(false)}
        onRemove={connection ? () => void removeConnection() : undefined}
        removing={remove.isPending}
      />
    );
  } else {
    body = (
      <EmptyState maw={520}>
        <IconKey size={32} stroke={1.5} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={500}>{SSO_NOT_SET_UP_MESSAGE}</Text>
        <Text c="dimmed" size="sm">
          Connect your identity provider (Okta, Microsoft Entra ID, Google Workspace, Keycloak or any other
          OpenID Connect provider) so that people sign in to Vexil with their work account. People from the
          e-mail domains you allow join as members the first time they sign in.
        </Text>
        <Button onClick={() => setSettingUp(true)}>Set up single sign-on</Button>
      </EmptyState>
    );
  }

  return (
    <Stack gap="lg">
      <Stack gap={4} maw={720}>
        <Group gap="sm">
          <Title order={2}>Single sign-on</Title>
          {connection ? (
            <Badge color="teal" variant="light">
              {connection.required ? 'On, required' : 'On'}
            </Badge>
          ) : null}
        </Group>
        <Text c="dimmed" size="sm">
          Let members sign in with your organisation’s identity provider through OpenID Connect.
        </Text>
      </Stack>
      {body}
    </Stack>
  );
}
