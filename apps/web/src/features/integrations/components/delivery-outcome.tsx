import { Badge, Text, Tooltip } from '@mantine/core';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import type { WebhookDelivery } from '@vexil/core';
import { formatDate } from '../../../lib/format';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notify';

dayjs.extend(relativeTime);

type DeliveryStatus = WebhookDelivery['status'];

const STATUS: Readonly<Record<DeliveryStatus, { label: string; color: string }>> = {
  succeeded: { label: 'Succeeded', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
  pending: { label: 'Pending', color: 'yellow' },
};

/** A delivery's status as a badge: Succeeded, Failed or Pending. */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const { label, color } = STATUS[status];
  return (
    <Badge color={color} variant="light" miw="max-content" style={{ flexShrink: 0 }}>
      {label}
    </Badge>
  );
}

/** "3 minutes ago" with the date and time in a tooltip. */
export function RelativeTime({ date, size = 'sm' }: { date: string; size?: 'xs' | 'sm' }) {
  const value = dayjs(date);
  return (
    <Tooltip label={formatDate(value)} withArrow>
      <Text size={size} component="time" dateTime={value.toISOString()} style={{ whiteSpace: 'nowrap' }}>
        {value.fromNow()}
      </Text>
    </Tooltip>
  );
}

/** "HTTP 200 in 45 ms", "HTTP 500", "no answer": what the receiver said, in words. */
export function deliveryResult(delivery: WebhookDelivery): string {
  const code = delivery.responseCode === null ? 'no answer' : `HTTP ${delivery.responseCode}`;
  return delivery.durationMs === null ? code : `${code} in ${delivery.durationMs} ms`;
}

/** Says how a test delivery or a resend went, from the delivery the server answered. */
export function notifyDeliveryOutcome(delivery: WebhookDelivery, what: 'Test delivery' | 'Resend'): void {
  if (delivery.status === 'succeeded') {
    notifySuccess(`${what} succeeded: ${deliveryResult(delivery)}.`);
  } else if (delivery.status === 'pending') {
    notifyInfo(
      delivery.attempts === 0
        ? `${what} queued: the delivery log shows how it goes.`
        : `${what} is waiting for another attempt${delivery.error ? `: ${delivery.error}` : '.'}`,
    );
  } else {
    notifyError(`${what} failed: ${delivery.error ?? deliveryResult(delivery)}`);
  }
}
