import { notifications } from '@mantine/notifications';

/** docs/product.md §9: notifications close after 5 s and at most 3 show at once (the rest queue). */
export const NOTIFICATION_TIMEOUT_MS = 5000;
export const NOTIFICATION_LIMIT = 3;

type NotifyOptions = {
  title?: string;
  /** Stays until the user closes it. */
  persistent?: boolean;
};

/**
 * An identical notification already on screen (or queued) is not shown a second time: several calls
 * failing together for the same reason, e.g. a lost connection, say it once. The id is what makes
 * notifications identical; Mantine ignores a notification whose id is already shown.
 */
function show(color: string, message: string, options: NotifyOptions = {}): string {
  return notifications.show({
    id: `${color}\u0000${options.title ?? ''}\u0000${message}`,
    message,
    title: options.title,
    color,
    withBorder: true,
    autoClose: options.persistent ? false : NOTIFICATION_TIMEOUT_MS,
  });
}

export function notifySuccess(message: string, options?: NotifyOptions): string {
  return show('teal', message, options);
}

export function notifyInfo(message: string, options?: NotifyOptions): string {
  return show('blue', message, options);
}

export function notifyWarning(message: string, options?: NotifyOptions): string {
  return show('yellow', message, options);
}

export function notifyError(message: string, options?: NotifyOptions): string {
  return show('red', message, options);
}

export function hideNotification(id: string): void {
  notifications.hide(id);
}
