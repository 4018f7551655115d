import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The "Page not found" screen: unknown routes, and resources that fail to load (docs/product.md §2, §8). */
export function NotFound() {
  return (
    <Center mih="60vh" py="xl">
      <Stack align="center" gap="md" maw={460} ta="center">
        <Text fz={72} fw={800} lh={1} c="var(--mantine-primary-color-light-color)" aria-hidden="true">
          404
        </Text>
        <Title order={1} fz={28}>
          Page not found
        </Title>
        <Text c="dimmed">The page you are looking for does not exist, or it has moved.</Text>
        <Button component={Link} to="/" leftSection={<IconHome size={18} aria-hidden="true" />} mt="sm">
          Head home
        </Button>
      </Stack>
    </Center>
  );
}
