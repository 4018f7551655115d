import { Anchor, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { NOTIFICATION_TIMEOUT_MS } from '../lib/notify';

/**
 * A success toast that leads somewhere: the sentence, then a link inside the dashboard. It stays three
 * times as long as other toasts, so that the link can be reached before it goes away. Toasts are
 * rendered inside the router (app/root-layout.tsx), so the link navigates without a reload.
 */
export function notifySuccessWithLink(message: string, link: { label: string; to: string }): string {
  return notifications.show({
    id: `teal\u0000link\u0000${message}`,
    color: 'teal',
    withBorder: true,
    autoClose: NOTIFICATION_TIMEOUT_MS * 3,
    message: (
      <Text size="sm" component="span">
        {message}{' '}
        <Anchor component={Link} to={link.to} size="sm">
          {link.label}
        </Anchor>
      </Text>
    ),
  });
}
