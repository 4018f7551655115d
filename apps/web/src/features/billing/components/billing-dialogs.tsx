import { Button, Group, Text } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { isApiError } from '../../../lib/api-client';
import { closeModal, showInfo, showModal } from '../../../lib/modals';
import { BILLING_PORTAL_UNAVAILABLE } from '@vexil/core/messages';
import { CHANGE_FAILURE_PREFIX } from './billing-format';

/** docs/product.md §8 "Billing portal failure dialog". */
export function openPortalFailureDialog(): string {
  return showInfo({ title: 'Billing portal unavailable', message: BILLING_PORTAL_UNAVAILABLE });
}

/** The reason a change was refused: the error body's `detail`, else its title. */
export function changeFailureDetail(error: unknown): string {
  if (isApiError(error)) return error.detail ?? error.title ?? 'Please try again later.';
  return 'Please try again later.';
}

/**
 * docs/product.md §8 "Subscription change failure dialog": the server's detail, with Contact us when the
 * server names a sales contact (`contactHref`).
 */
export function openChangeFailureDialog(detail: string, contactHref: string | null): string {
  const id = `subscription-change-failure-${Date.now()}`;
  return showModal({
    modalId: id,
    title: 'Subscription not updated',
    children: (
      <>
        <Text size="sm">{`${CHANGE_FAILURE_PREFIX}${detail}`}</Text>
        <Group justify="flex-end" mt="lg" gap="sm">
          <Button variant="default" onClick={() => closeModal(id)}>
            Close
          </Button>
          {contactHref ? (
            <Button component="a" href={contactHref} leftSection={<IconMail size={16} aria-hidden="true" />}>
              Contact us
            </Button>
          ) : null}
        </Group>
      </>
    ),
  });
}
