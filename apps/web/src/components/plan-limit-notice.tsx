import { Anchor, Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isOrganisationAdmin } from '@vexil/core';
import { adminPath } from '../lib/paths';
import { useOptionalSession } from '../lib/session';

/** What the plan notice tells members who may not change the plan themselves. */
export const ASK_AN_ADMIN_TO_UPGRADE = 'Ask an organisation admin to upgrade the plan.';

/**
 * Why a create button is disabled by the plan ("Only {n} feature(s) allowed."), with the way to a bigger
 * plan (docs/product.md §8 "Feature limit"): the upgrade link for organisation admins, who alone may
 * change it, and whom to ask for everyone else. `id` lets the button point at it with aria-describedby.
 */
export function PlanLimitNotice({ id, message }: { id: string; message: string }) {
  const principalUser = useOptionalSession()?.principalUser;
  return (
    <Group id={id} gap={6} wrap="nowrap">
      <IconLock
        size={14}
        aria-hidden="true"
        color="var(--mantine-color-dimmed)"
        // Keeps its size when the words wrap on a phone.
        style={{ flexShrink: 0 }}
      />
      <Text size="sm" c="dimmed">
        {message}{' '}
        {principalUser && isOrganisationAdmin(principalUser) ? (
          <Anchor component={Link} to={adminPath('billing')} size="sm">
            Upgrade your plan
          </Anchor>
        ) : (
          ASK_AN_ADMIN_TO_UPGRADE
        )}
      </Text>
    </Group>
  );
}
