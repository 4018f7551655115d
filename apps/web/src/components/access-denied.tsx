import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';

/** What a screen switched off by a UI flag says instead of itself (docs/product.md §8: "Access denied."). */
export function AccessDenied() {
  return (
    <Center mih="50vh" py="xl">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="gray" aria-hidden="true">
          <IconLock size={30} />
        </ThemeIcon>
        <Title order={1} fz={24}>
          Access denied.
        </Title>
        <Text c="dimmed">This screen is switched off for your organisation.</Text>
      </Stack>
    </Center>
  );
}
