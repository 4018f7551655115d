import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { NotFound } from '../components/not-found';

/** The error boundary of every route: a 404 is "Page not found", anything else a plain apology. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  console.error(error);
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="md" maw={460} ta="center" role="alert">
        <Title order={1} fz={28}>
          Something went wrong
        </Title>
        <Text c="dimmed">An unexpected error stopped this page. Reloading usually helps.</Text>
        <Group>
          <Button onClick={() => window.location.reload()}>Reload</Button>
          <Button component={Link} to="/" variant="default" reloadDocument>
            Head home
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
