import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { Outlet } from 'react-router';
import { NOTIFICATION_LIMIT, NOTIFICATION_TIMEOUT_MS } from '../lib/notify';

/** Inside the router, so that modals and notifications can hold links. */
export function RootLayout() {
  return (
    <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }}>
      {/* Bottom-right, away from the top navigation's profile menu, which top-right toasts covered. */}
      <Notifications position="bottom-right" autoClose={NOTIFICATION_TIMEOUT_MS} limit={NOTIFICATION_LIMIT} />
      <Outlet />
    </ModalsProvider>
  );
}
