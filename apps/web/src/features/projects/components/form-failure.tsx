import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { isApiError } from '../../../lib/api-client';

/** Spec §8 "Project save": what the form says when the server could not be reached. */
export const CONNECTIVITY_MESSAGE = 'We had connectivity issues, please try again.';

/** The message a failed save shows in its form: the server's, or the connectivity message. */
export function failureMessage(error: unknown): string {
  if (isApiError(error) && error.status === 0) return CONNECTIVITY_MESSAGE;
  if (isApiError(error)) return error.title ?? error.detail ?? error.message;
  return 'Something went wrong, please try again.';
}

/**
 * Passes the server's field errors (`errors: [{field, message}]`) to the form fields named in `fields`.
 */
export function applyFieldErrors<Field extends string>(
  error: unknown,
  fields: readonly Field[],
  setError: (field: Field, error: { message: string }) => void,
): void {
  if (!isApiError(error)) return;
  for (const { field, message } of error.errors) {
    if ((fields as readonly string[]).includes(field)) setError(field as Field, { message });
  }
}

/** Marks a form as failed, with the reason. */
export function FormFailure({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
      {message}
    </Alert>
  );
}
