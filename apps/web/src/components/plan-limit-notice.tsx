import { Anchor, Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { adminPath } from '../lib/paths';

/**
 * Why a create button is disabled by the plan ("Only {n} feature(s) allowed."), with the way to a bigger
 * plan (docs/product.md §8 "Feature limit"). `id` lets the button point at it with aria-describedby.
 */
export function PlanLimitNotice({ id, message }: { id: string; message: string }) {
  return (
    <Group id={id} gap={6} wrap="nowrap">
      <IconLock size={14} aria-hidden="true" color="var(--mantine-color-dimmed)" />
      <Text size="sm" c="dimmed">
        {message}{' '}
        <Anchor component={Link} to={adminPath('billing')} size="sm">
          Upgrade your plan
        </Anchor>
      </Text>
    </Group>
  );
}
