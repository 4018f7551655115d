import { useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Group } from '@mantine/core';
import { IconAlertCircle, IconLock, IconRefresh } from '@tabler/icons-react';
import { isApiError } from '../lib/api-client';
import { hideNotification } from '../lib/notify';

/**
 * What a failed save says in its form (docs/product.md §8): the server's title; for a call that never reached
 * the server, `connectivityMessage` (the api client's generic one unless docs/product.md names another for the screen).
 */
export function formFailureMessage(error: unknown, connectivityMessage?: string): string {
  if (isApiError(error) && error.status === 0 && connectivityMessage) return connectivityMessage;
  if (isApiError(error)) return error.title ?? error.detail ?? error.message;
  return 'Something went wrong, please try again.';
}

/**
 * Passes the server's field errors (`errors: [{field, message}]`) to the form's fields. `fields` maps
 * the server's field names to the form's (a list when they are the same). Answers whether the refusal
 * is said in full under its fields: every error placed and the title one of their messages, so that the
 * form need not say it again above them ({@link fieldOnlyFailure}).
 */
export function applyFieldErrors<Field extends string>(
  error: unknown,
  fields: readonly Field[] | Readonly<Record<string, Field>>,
  setError: (field: Field, error: { message: string }) => void,
): boolean {
  if (!isApiError(error)) return false;
  const mapping: Readonly<Record<string, Field>> = Array.isArray(fields)
    ? Object.fromEntries(fields.map((field) => [field, field]))
    : (fields as Readonly<Record<string, Field>>);
  let placed = 0;
  for (const { field, message } of error.errors) {
    const target = mapping[field];
    if (!target) continue;
    setError(target, { message });
    placed += 1;
  }
  const saidByFields = error.title === undefined || error.errors.some((e) => e.message === error.title);
  return placed > 0 && placed === error.errors.length && saidByFields;
}

/**
 * The form-level message of a failed save whose field errors were applied: none when the fields say it
 * all (one error shown once, under its field), else {@link formFailureMessage}.
 */
export function fieldOnlyFailure(error: unknown, saidByFields: boolean, connectivityMessage?: string) {
  return saidByFields ? null : formFailureMessage(error, connectivityMessage);
}

/** Marks a form as failed, with the reason (and, optionally, what to do about it). */
export function FormFailure({ message, children }: { message: string | null; children?: ReactNode }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
      {message}
      {children}
    </Alert>
  );
}

/** Says why a form is disabled. */
export function PermissionNotice({ children }: { children: ReactNode }) {
  return (
    <Alert color="gray" variant="light" icon={<IconLock size={18} aria-hidden="true" />}>
      {children}
    </Alert>
  );
}

/**
 * What a save refused as stale (409 `stale_write`) offers under the server's message: loading the
 * record again, which drops the unsaved edit, so that the user can redo it on what is stored now.
 */
export function ReloadAction({ reloading, onReload }: { reloading: boolean; onReload: () => void }) {
  return (
    <Group mt="xs">
      <Button
        size="xs"
        variant="default"
        leftSection={<IconRefresh size={14} aria-hidden="true" />}
        loading={reloading}
        onClick={onReload}
      >
        Reload
      </Button>
    </Group>
  );
}

/**
 * The Reload of a form whose save was refused as stale: `reload(load, apply)` loads the record again
 * and hands it to `apply` (which resets the form), and takes away the toast that said to reload
 * (`toastShown`). A failed load leaves the form and its edit as they were; the api client says why.
 */
export function useStaleReload() {
  const [reloading, setReloading] = useState(false);
  const toast = useRef<string | null>(null);
  const reload = async <T,>(load: () => Promise<T>, apply: (fresh: T) => void): Promise<void> => {
    setReloading(true);
    let fresh: T;
    try {
      fresh = await load();
    } catch {
      return;
    } finally {
      setReloading(false);
    }
    if (toast.current) hideNotification(toast.current);
    toast.current = null;
    apply(fresh);
  };
  /** The toast a refused save showed, to take away on Reload when the refusal was stale. */
  const toastShown = (id: string, stale: boolean) => {
    toast.current = stale ? id : null;
  };
  return { reloading, reload, toastShown };
}
