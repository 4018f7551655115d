import { Outlet } from 'react-router';
import { DeferredModals, DeferredNotifications } from './deferred-overlays';

/** Inside the router, so that modals and notifications can hold links. */
export function RootLayout() {
  return (
    <>
      <DeferredModals />
      <DeferredNotifications />
      <Outlet />
    </>
  );
}
