import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { isApiError } from '../lib/api-client';

/**
 * What a failed save says in its form (spec §8): the server's title; for a call that never reached
 * the server, `connectivityMessage` (the api client's generic one unless a screen's spec names another).
 */
export function formFailureMessage(error: unknown, connectivityMessage?: string): string {
  if (isApiError(error) && error.status === 0 && connectivityMessage) return connectivityMessage;
  if (isApiError(error)) return error.title ?? error.detail ?? error.message;
  return 'Something went wrong, please try again.';
}

/**
 * Passes the server's field errors (`errors: [{field, message}]`) to the form's fields. `fields` maps
 * the server's field names to the form's (a list when they are the same).
 */
export function applyFieldErrors<Field extends string>(
  error: unknown,
  fields: readonly Field[] | Readonly<Record<string, Field>>,
  setError: (field: Field, error: { message: string }) => void,
): void {
  if (!isApiError(error)) return;
  const mapping: Readonly<Record<string, Field>> = Array.isArray(fields)
    ? Object.fromEntries(fields.map((field) => [field, field]))
    : (fields as Readonly<Record<string, Field>>);
  for (const { field, message } of error.errors) {
    const target = mapping[field];
    if (target) setError(target, { message });
  }
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
