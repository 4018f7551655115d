import { Center, Loader, Stack, Text } from '@mantine/core';
import { Logo } from './logo';

/** docs/product.md §2 "Loading page": the logo and the text "Loading", while the dashboard gets what it needs. */
export function LoadingPage() {
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="lg" role="status" aria-live="polite">
        <Logo size={44} />
        <Stack align="center" gap="xs">
          <Loader size="sm" aria-hidden="true" />
          <Text c="dimmed" size="sm">
            Loading
          </Text>
        </Stack>
      </Stack>
    </Center>
  );
}
