import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { isApiError } from '../lib/api-client';

/** The server's reason for a failed call ('' when it gave none). */
export function errorReason(error: unknown): string {
  return (isApiError(error) && (error.title ?? error.detail)) || '';
}

/** A list that could not be loaded: what failed, the server's reason, and a Retry button. */
export function LoadError({
  title,
  error,
  retrying,
  onRetry,
}: {
  title: string;
  error: unknown;
  retrying: boolean;
  onRetry: () => void;
}) {
  const reason = errorReason(error) || 'Please try again.';
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertCircle size={18} aria-hidden="true" />}
      title={title}
    >
      <Group justify="space-between" gap="md">
        <Text size="sm">{reason}</Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} aria-hidden="true" />}
          loading={retrying}
          onClick={onRetry}
        >
          Retry
        </Button>
      </Group>
    </Alert>
  );
}
