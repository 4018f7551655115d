import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { isApiError } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { adminPath, jiraIntegrationPath } from '../../../lib/paths';
import { useConnectJira } from '../../../entities/integrations/api/connect-jira';
import { useJiraConnectToken } from '../../../entities/integrations/api/get-jira-connect-token';
import { JiraConnectionForm } from './jira-connection-form';

export const JIRA_CONNECTED_MESSAGE = 'Jira connected.';
export const TOKEN_REFUSED_MESSAGE = 'This connect link has expired or was already used.';

/** Whether the server refused the connect page's one-time token (rather than the connection). */
function refusesToken(error: unknown): boolean {
  return isApiError(error) && error.errors.some((e) => e.field === 'token');
}

/**
 * /admin/integrations/jira/connect?token= (docs/product.md §2): connects a Jira site. The address carries a
 * one-time token (the page asks for one when it has none); the form sends it with the site's address and
 * the account Vexil reads issues as. Once connected, the connection's own page.
 */
export function JiraConnectPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const connect = useConnectJira();
  const newToken = useJiraConnectToken();
  const [tokenRefused, setTokenRefused] = useState(false);
  // A renewed token is used from the render that hides the refusal, not only once the address (a
  // router transition, which may commit later) carries it: a Connect clicked in between sends it.
  const [renewed, setRenewed] = useState<string | null>(null);
  const token = renewed ?? searchParams.get('token');

  const { mutate: askToken } = newToken;
  const asked = useRef(false);
  const renewToken = () =>
    askToken(undefined, {
      onSuccess: ({ token: fresh }) => {
        setTokenRefused(false);
        setRenewed(fresh);
        setSearchParams({ token: fresh }, { replace: true });
      },
    });
  useEffect(() => {
    // Once per visit: React runs effects twice in development.
    if (token || asked.current) return;
    asked.current = true;
    askToken(undefined, {
      onSuccess: ({ token: fresh }) => setSearchParams({ token: fresh }, { replace: true }),
    });
  }, [token, askToken, setSearchParams]);

  let body;
  if (!token && newToken.isError) {
    body = (
      <LoadError
        title="We could not start connecting Jira."
        error={newToken.error}
        retrying={newToken.isPending}
        onRetry={renewToken}
      />
    );
  } else if (!token) {
    body = (
      <Stack gap="md" maw={600} role="status" aria-label="Preparing the connection">
        {[0, 1, 2].map((n) => (
          <Skeleton key={n} height={56} />
        ))}
      </Stack>
    );
  } else {
    body = (
      <Stack gap="md">
        {tokenRefused ? (
          <Alert
            color="yellow"
            variant="light"
            icon={<IconAlertCircle size={18} aria-hidden="true" />}
            maw={600}
          >
            <Group justify="space-between" gap="sm">
              <Text size="sm">{TOKEN_REFUSED_MESSAGE}</Text>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconRefresh size={14} aria-hidden="true" />}
                loading={newToken.isPending}
                onClick={renewToken}
              >
                Get a new link
              </Button>
            </Group>
          </Alert>
        ) : null}
        <JiraConnectionForm
          submitLabel="Connect Jira"
          saidByPage={refusesToken}
          onSave={async (input) => {
            try {
              const connection = await connect.mutateAsync({
                ...input,
                apiToken: input.apiToken ?? '',
                token,
              });
              notifySuccess(JIRA_CONNECTED_MESSAGE);
              await navigate(jiraIntegrationPath(connection.id), { replace: true });
            } catch (error) {
              setTokenRefused(refusesToken(error));
              throw error;
            }
          }}
          actions={
            <Button variant="default" component={Link} to={adminPath('integrations')}>
              Cancel
            </Button>
          }
        />
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Stack gap={4} maw={720}>
        <Title order={2}>Connect Jira</Title>
        <Text c="dimmed" size="sm">
          Link features to Jira issues: the feature page shows each issue’s title with a link to it, and a
          feature can be created from an issue. Vexil reads issues as the Jira account below.
        </Text>
      </Stack>
      {body}
    </Stack>
  );
}
