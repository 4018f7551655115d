import { Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useUnauthorisedTest } from '../api/get-unauthorised-test';

/** /test/401: fires a call that answers 401 after ten seconds; the generic rule then signs the user out. */
export function UnauthorisedTestPage() {
  const call = useUnauthorisedTest();

  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>Session test</Title>
      <Paper withBorder radius="md" p="lg">
        {call.isFetching ? (
          <Group gap="sm" wrap="nowrap" role="status">
            <Loader size="sm" aria-hidden="true" />
            <Text>
              Waiting for the server. It answers 401 after 10 seconds, and you will then be signed out.
            </Text>
          </Group>
        ) : (
          <Text>The server answered; you are being signed out.</Text>
        )}
      </Paper>
    </Stack>
  );
}
