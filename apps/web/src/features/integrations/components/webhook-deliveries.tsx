import { useEffect, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Code, Group, Paper, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconRefresh, IconSend } from '@tabler/icons-react';
import type { Webhook, WebhookDelivery } from '@vexil/core';
import { EmptyState } from '../../../components/empty-state';
import { errorReason, LoadError } from '../../../components/load-error';
import { TruncatedText } from '../../../components/truncated-text';
import { showModal } from '../../../lib/modals';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { notifyError } from '../../../lib/notify';
import { useWebhookDeliveries } from '../../../entities/webhooks/api/get-webhook-deliveries';
import { useResendWebhookDelivery } from '../../../entities/webhooks/api/resend-webhook-delivery';
import { webhookKeys } from '../../../entities/webhooks/api/query-keys';
import { DeliveryStatusBadge, notifyDeliveryOutcome, RelativeTime } from './delivery-outcome';
import { EVENT_KIND_LABELS } from './event-kinds';

export const NO_DELIVERIES_MESSAGE = 'Nothing has been sent to this webhook yet.';
export const RESEND_FAILED_MESSAGE = 'There was an error resending the delivery';

type RowProps = {
  delivery: WebhookDelivery;
  resending: boolean;
  onResend: () => void;
};

function EventName({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <Stack gap={0} miw={0}>
      <Text size="sm" fw={500}>
        {EVENT_KIND_LABELS[delivery.eventType]}
      </Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {delivery.eventType}
      </Text>
    </Stack>
  );
}

function Dimmed({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

function ResponseCode({ delivery }: { delivery: WebhookDelivery }) {
  return delivery.responseCode === null ? <Dimmed>—</Dimmed> : <Code>{delivery.responseCode}</Code>;
}

function Duration({ delivery }: { delivery: WebhookDelivery }) {
  return delivery.durationMs === null ? (
    <Dimmed>—</Dimmed>
  ) : (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
      {delivery.durationMs} ms
    </Text>
  );
}

/** Why it failed and, while it waits, when it is tried again. */
function Details({ delivery }: { delivery: WebhookDelivery }) {
  if (!delivery.error && !delivery.nextAttemptDate) return <Dimmed>—</Dimmed>;
  return (
    <Stack gap={2} miw={0}>
      {delivery.error ? <TruncatedText text={delivery.error} size="sm" c="red" /> : null}
      {delivery.nextAttemptDate ? (
        <Group gap={4} wrap="nowrap">
          <Text size="xs" c="dimmed">
            Next attempt
          </Text>
          <RelativeTime date={delivery.nextAttemptDate} size="xs" />
        </Group>
      ) : null}
    </Stack>
  );
}

function ResendButton({ resending, onResend }: RowProps) {
  return (
    <Button
      size="xs"
      variant="default"
      leftSection={<IconSend size={14} aria-hidden="true" />}
      loading={resending}
      onClick={onResend}
    >
      Resend
    </Button>
  );
}

function DeliveryRow(props: RowProps) {
  const { delivery } = props;
  return (
    <Table.Tr data-delivery-id={delivery.id}>
      <Table.Td>
        <DeliveryStatusBadge status={delivery.status} />
      </Table.Td>
      <Table.Td>
        <EventName delivery={delivery} />
      </Table.Td>
      <Table.Td ta="right">{delivery.attempts}</Table.Td>
      <Table.Td>
        <ResponseCode delivery={delivery} />
      </Table.Td>
      <Table.Td>
        <Duration delivery={delivery} />
      </Table.Td>
      <Table.Td>
        <RelativeTime date={delivery.createdDate} />
      </Table.Td>
      <Table.Td>
        <Details delivery={delivery} />
      </Table.Td>
      <Table.Td>
        <Group justify="flex-end">
          <ResendButton {...props} />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** On a phone, a card per delivery with the row's facts stacked. */
function DeliveryCard(props: RowProps) {
  const { delivery } = props;
  const line = (label: string, value: ReactNode) => (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed" w={90} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      {value}
    </Group>
  );
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={EVENT_KIND_LABELS[delivery.eventType]}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <EventName delivery={delivery} />
          <DeliveryStatusBadge status={delivery.status} />
        </Group>
        {line('Sent', <RelativeTime date={delivery.createdDate} />)}
        {line('Response', <ResponseCode delivery={delivery} />)}
        {line('Duration', <Duration delivery={delivery} />)}
        {line('Attempts', <Text size="sm">{delivery.attempts}</Text>)}
        {delivery.error || delivery.nextAttemptDate ? line('Details', <Details delivery={delivery} />) : null}
        <Group>
          <ResendButton {...props} />
        </Group>
      </Stack>
    </Paper>
  );
}

function Loading() {
  return (
    <Stack gap="xs" role="status" aria-label="Loading deliveries">
      {[0, 1, 2].map((n) => (
        <Skeleton key={n} height={36} />
      ))}
    </Stack>
  );
}

/**
 * The delivery log of one webhook: each event sent (and each test), newest first, with its status,
 * attempts, the receiver's response code, how long it took, when, why it failed and when it is tried
 * again; Resend sends one again. Refresh asks again; while a delivery is pending the log follows it.
 */
export function WebhookDeliveries({ projectKey, webhook }: { projectKey: string; webhook: Webhook }) {
  const narrow = useNarrowScreen();
  const deliveries = useWebhookDeliveries(projectKey, webhook.id);
  const resend = useResendWebhookDelivery();
  const queryClient = useQueryClient();
  const updatedAt = deliveries.dataUpdatedAt;
  useEffect(() => {
    // The webhook's card shows its last delivery: what the log has just learnt, it learns too.
    if (updatedAt) void queryClient.invalidateQueries({ queryKey: webhookKeys.list(projectKey) });
  }, [updatedAt, projectKey, queryClient]);

  const onResend = async (delivery: WebhookDelivery) => {
    let sent: WebhookDelivery;
    try {
      sent = await resend.mutateAsync({ projectKey, webhookId: webhook.id, deliveryId: delivery.id });
    } catch (error) {
      const reason = errorReason(error);
      notifyError(reason ? `${RESEND_FAILED_MESSAGE}: ${reason}` : RESEND_FAILED_MESSAGE);
      return;
    }
    notifyDeliveryOutcome(sent, 'Resend');
  };

  const rowProps = (delivery: WebhookDelivery): RowProps => ({
    delivery,
    resending: resend.isPending && resend.variables.deliveryId === delivery.id,
    onResend: () => void onResend(delivery),
  });

  let body: ReactNode;
  if (deliveries.isPending) {
    body = <Loading />;
  } else if (deliveries.isError) {
    body = (
      <LoadError
        title="We could not load the deliveries."
        error={deliveries.error}
        retrying={deliveries.isFetching}
        onRetry={() => void deliveries.refetch()}
      />
    );
  } else if (deliveries.data.length === 0) {
    body = (
      <EmptyState py="xl" maw={420}>
        <Text fw={500}>{NO_DELIVERIES_MESSAGE}</Text>
        <Text size="sm" c="dimmed">
          Send a test delivery, or change a feature, to see it here.
        </Text>
      </EmptyState>
    );
  } else if (narrow) {
    body = (
      <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Deliveries">
        {deliveries.data.map((delivery) => (
          <DeliveryCard key={delivery.id} {...rowProps(delivery)} />
        ))}
      </Stack>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={980}>
        <Table layout="fixed" verticalSpacing="sm" highlightOnHover aria-label="Deliveries">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={120}>Status</Table.Th>
              <Table.Th w={180}>Event</Table.Th>
              <Table.Th w={90} ta="right">
                Attempts
              </Table.Th>
              <Table.Th w={100}>Response</Table.Th>
              <Table.Th w={100}>Duration</Table.Th>
              <Table.Th w={160}>Sent</Table.Th>
              <Table.Th>Details</Table.Th>
              <Table.Th w={130}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deliveries.data.map((delivery) => (
              <DeliveryRow key={delivery.id} {...rowProps(delivery)} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <TruncatedText text={webhook.url} size="sm" ff="monospace" />
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} aria-hidden="true" />}
          loading={deliveries.isFetching && !deliveries.isPending}
          onClick={() => void deliveries.refetch()}
          style={{ flexShrink: 0 }}
        >
          Refresh
        </Button>
      </Group>
      {body}
    </Stack>
  );
}

/** Opens the delivery log of a webhook on the modal stack. */
export function openWebhookDeliveries(projectKey: string, webhook: Webhook): string {
  return showModal({
    title: 'Deliveries',
    size: 1100,
    children: <WebhookDeliveries projectKey={projectKey} webhook={webhook} />,
  });
}
