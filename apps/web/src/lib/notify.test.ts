import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifications, notificationsStore } from '@mantine/notifications';
import {
  NOTIFICATION_LIMIT,
  NOTIFICATION_TIMEOUT_MS,
  notifyError,
  notifySuccess,
  notifyWarning,
} from './notify';

describe('notify', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('uses docs/product.md §9: 5 s timeout, at most 3 at once', () => {
    expect(NOTIFICATION_TIMEOUT_MS).toBe(5000);
    expect(NOTIFICATION_LIMIT).toBe(3);
  });

  it('closes toasts after the timeout unless they are persistent', () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
    notifySuccess('Project saved.');
    notifyError('Nope');
    notifyWarning('Check this', { persistent: true });
    expect(show.mock.calls.map(([data]) => [data.message, data.color, data.autoClose])).toEqual([
      ['Project saved.', 'teal', 5000],
      ['Nope', 'red', 5000],
      ['Check this', 'yellow', false],
    ]);
  });

  it('shows an identical message once while it is on screen', () => {
    notifications.clean();
    notifyError('We could not contact the server, please try again.');
    notifyError('We could not contact the server, please try again.');
    notifyWarning('We could not contact the server, please try again.');
    expect(notificationsStore.getState().notifications.map((n) => [n.color, n.message])).toEqual([
      ['red', 'We could not contact the server, please try again.'],
      ['yellow', 'We could not contact the server, please try again.'],
    ]);
    notifications.clean();
  });
});
