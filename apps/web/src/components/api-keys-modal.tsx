import { useState } from 'react';
import { ActionIcon, Alert, Button, CopyButton, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconRefresh } from '@tabler/icons-react';
import { isMaskedServerSdkKey } from '@vexil/core';
import { isApiError } from '../lib/api-client';
import { closeModal, showModal } from '../lib/modals';
import { notifySuccess } from '../lib/notify';
import { COPIED_MESSAGE, COPY_TOOLTIP_CLOSE_DELAY_MS, COPY_TOOLTIP_OPEN_DELAY_MS } from './copy-tooltip';

/** Which SDK key: the secret server key or the public JS client key. */
export type ApiKeyKind = 'server' | 'js';

/** What the modal shows of an environment. */
export type ApiKeysEnvironment = { name: string; apiKey: string; jsApiKey: string };

export type ApiKeysModalProps = {
  environment: ApiKeysEnvironment;
  /**
   * Replaces one key and resolves with the environment carrying the new one. Only given to those who may
   * rotate keys (organisation admins): without it the modal offers no Rotate buttons.
   */
  onRotate?: (kind: ApiKeyKind) => Promise<ApiKeysEnvironment>;
};

const KEYS = {
  js: {
    label: 'JS Client Key',
    lowerLabel: 'JS client key',
    field: 'jsApiKey',
    description:
      'Public: browser and mobile SDKs use it, so it is safe to ship in web pages and apps. It only ' +
      'evaluates flags for the user of the device.',
  },
  server: {
    label: 'Server Key',
    lowerLabel: 'server key',
    field: 'apiKey',
    description:
      'Secret: server SDKs use it to download every flag and its rules. Keep it on your servers, never ' +
      'in a browser or an app.',
  },
} as const;

/** Shown instead of the server key's description when the server sent the key masked. */
export const HIDDEN_SERVER_KEY_MESSAGE =
  'Hidden: only those who may change the flags of this environment (production editors and admins ' +
  'for a production environment) can see its server key.';

/** Copies an SDK key; disabled, with nothing to copy, for a server key the server sent masked. */
export function CopyKeyButton({ value, label, hidden }: { value: string; label: string; hidden: boolean }) {
  if (hidden) {
    return (
      <ActionIcon variant="subtle" color="gray" disabled aria-label={`Copy ${label}`}>
        <IconCopy size={16} aria-hidden="true" />
      </ActionIcon>
    );
  }
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip
          label={copied ? COPIED_MESSAGE : `Copy ${label}`}
          opened={copied || undefined}
          openDelay={COPY_TOOLTIP_OPEN_DELAY_MS}
          closeDelay={COPY_TOOLTIP_CLOSE_DELAY_MS}
          withArrow
          position="left"
        >
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            onClick={copy}
            aria-label={copied ? COPIED_MESSAGE : `Copy ${label}`}
          >
            {copied ? <IconCheck size={16} aria-hidden="true" /> : <IconCopy size={16} aria-hidden="true" />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

function rotateFailure(error: unknown): string {
  return (isApiError(error) && error.title) || 'The key was not rotated, please try again.';
}

/**
 * docs/product.md §2 "Api keys": an environment's JS client key and server key, each read-only with a copy button,
 * and, for those who may, a Rotate button per key behind a confirmation. A server key the server sent
 * masked is shown as hidden, with nothing to copy. The confirmation is shown inside
 * this modal rather than stacked on it, because the modal stack shows only its top modal: a stacked
 * confirmation would unmount this one and the newly rotated key with it.
 */
export function ApiKeysModal({ environment, onRotate }: ApiKeysModalProps) {
  const [keys, setKeys] = useState({ apiKey: environment.apiKey, jsApiKey: environment.jsApiKey });
  const [confirming, setConfirming] = useState<ApiKeyKind | null>(null);
  const [rotating, setRotating] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function rotate(kind: ApiKeyKind) {
    if (!onRotate) return;
    setRotating(true);
    setFailure(null);
    try {
      const rotated = await onRotate(kind);
      setKeys({ apiKey: rotated.apiKey, jsApiKey: rotated.jsApiKey });
      setConfirming(null);
      notifySuccess(`The ${KEYS[kind].lowerLabel} of ${environment.name} has been rotated.`);
    } catch (error) {
      setFailure(rotateFailure(error));
    } finally {
      setRotating(false);
    }
  }

  return (
    <Stack gap="lg">
      {(['js', 'server'] as const).map((kind) => {
        const { label, field, description } = KEYS[kind];
        // The server masks the server key for those who may not change this environment's flags.
        const hidden = kind === 'server' && isMaskedServerSdkKey(keys[field]);
        return (
          <Group key={kind} align="flex-end" gap="sm" wrap="nowrap">
            <TextInput
              flex={1}
              label={label}
              description={hidden ? HIDDEN_SERVER_KEY_MESSAGE : description}
              value={keys[field]}
              readOnly
              disabled={hidden}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              rightSection={<CopyKeyButton value={keys[field]} label={label} hidden={hidden} />}
            />
            {onRotate ? (
              <Button
                variant="default"
                leftSection={<IconRefresh size={16} aria-hidden="true" />}
                aria-label={`Rotate ${label}`}
                disabled={rotating}
                onClick={() => {
                  setFailure(null);
                  setConfirming(kind);
                }}
              >
                Rotate
              </Button>
            ) : null}
          </Group>
        );
      })}
      {confirming ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden="true" />}
          title={`Rotate the ${KEYS[confirming].lowerLabel}?`}
          // A question to answer, not an announcement: the failure below is the alert.
          role="group"
          aria-label={`Rotate the ${KEYS[confirming].lowerLabel}?`}
        >
          <Stack gap="sm">
            <Text size="sm">
              Rotate the {KEYS[confirming].lowerLabel} of {environment.name}? Applications using the old key
              stop receiving flags at once.
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setConfirming(null)} disabled={rotating}>
                Cancel
              </Button>
              <Button color="red" loading={rotating} onClick={() => void rotate(confirming)}>
                Rotate key
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      {failure ? (
        <Alert color="red" variant="light" role="alert">
          {failure}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => closeModal()}>
          Close
        </Button>
      </Group>
    </Stack>
  );
}

/** Opens the Api keys modal on top of the modal stack. */
export function openApiKeysModal(props: ApiKeysModalProps): string {
  return showModal({
    title: (
      <>
        Api keys{' '}
        <Text span c="dimmed" inherit>
          · {props.environment.name}
        </Text>
      </>
    ),
    size: 'lg',
    children: <ApiKeysModal {...props} />,
  });
}
