import { Stack, Text, Title } from '@mantine/core';
import { useEnvironmentScope } from './environment-context';

/**
 * TEMPORARY: stands in for the environment's feature list until the Feature list issue replaces this
 * file (and its route in routes.tsx) with the real screen.
 */
export function EnvironmentFeaturesPlaceholder() {
  const { project, environment } = useEnvironmentScope();
  return (
    <Stack gap="xs">
      <Title order={1}>Features</Title>
      <Text c="dimmed">
        {environment.name} environment of {project.name}
      </Text>
    </Stack>
  );
}
