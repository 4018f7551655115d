import { Alert, Button, Code, CopyButton, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { COPIED_MESSAGE } from '../../../components/copy-tooltip';
import { closeModal, showModal } from '../../../lib/modals';

export const SECRET_SHOWN_ONCE_TITLE = 'Copy the signing secret now';
export const SECRET_SHOWN_ONCE_MESSAGE =
  'You won’t be able to see it again. Store it where your receiver reads its configuration; if you lose it, rotate the secret and update the receiver.';

/**
 * A webhook's signing secret, shown once after it is created or rotated, with a button that copies it
 * and how the receiver checks a delivery with it (Standard Webhooks headers).
 */
export function WebhookSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle size={18} aria-hidden="true" />}
        title={SECRET_SHOWN_ONCE_TITLE}
      >
        {SECRET_SHOWN_ONCE_MESSAGE}
      </Alert>
      <Textarea
        label="Signing secret"
        value={secret}
        readOnly
        autosize
        minRows={1}
        onFocus={(event) => event.currentTarget.select()}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
      />
      <Text size="sm" c="dimmed">
        Each delivery carries <Code>webhook-id</Code>, <Code>webhook-timestamp</Code> and{' '}
        <Code>webhook-signature</Code> headers: an HMAC-SHA256 of <Code>{'{id}.{timestamp}.{body}'}</Code>{' '}
        with this secret, as the Standard Webhooks libraries check it.
      </Text>
      <Group justify="flex-end" gap="sm">
        <CopyButton value={secret} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'light' : 'default'}
              color={copied ? 'teal' : undefined}
              leftSection={
                copied ? (
                  <IconCheck size={16} aria-hidden="true" />
                ) : (
                  <IconCopy size={16} aria-hidden="true" />
                )
              }
              onClick={copy}
            >
              {copied ? COPIED_MESSAGE : 'Copy secret'}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

/** Opens a modal showing a new secret once (after a rotation). A click beside it does not close it. */
export function openWebhookSecretModal(secret: string): string {
  return showModal({
    title: 'New signing secret',
    size: 'lg',
    closeOnClickOutside: false,
    children: <WebhookSecret secret={secret} onDone={() => closeModal()} />,
  });
}
