import { notifications } from '@mantine/notifications';

/** docs/product.md §9: notifications close after 5 s and at most 3 show at once (the rest queue). */
export const NOTIFICATION_TIMEOUT_MS = 5000;
export const NOTIFICATION_LIMIT = 3;

type NotifyOptions = {
  title?: string;
  /** Stays until the user closes it. */
  persistent?: boolean;
};

function show(color: string, message: string, options: NotifyOptions = {}): string {
  return notifications.show({
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
