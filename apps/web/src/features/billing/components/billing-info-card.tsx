import type { ReactNode } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCreditCard, IconReceipt } from '@tabler/icons-react';
import type { BillingInfo } from '@vexil/core';
import { NO_BILLING_INFO } from './billing-format';

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" w={110} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

/** "Visa •••• 4242"; a card whose brand is unknown is just its last four digits. */
export function cardLine(info: BillingInfo): string | null {
  if (!info.lastFour) return null;
  const brand = info.brand ? `${info.brand.charAt(0).toUpperCase()}${info.brand.slice(1)} ` : '';
  return `${brand}•••• ${info.lastFour}`;
}

/**
 * docs/product.md §2 "Billing": the Billing Information card (the card's brand and last four digits,
 * the billing e-mail, name and phone, or that there is none) with Manage Billing Details and Update
 * Subscription.
 */
export function BillingInfoCard({
  info,
  managing,
  onManage,
  onUpdateSubscription,
}: {
  info: BillingInfo;
  managing: boolean;
  onManage: () => void;
  onUpdateSubscription: () => void;
}) {
  const card = cardLine(info);
  const { email, name, phone } = info.customer ?? { email: null, name: null, phone: null };
  const empty = !card && !email && !name && !phone;
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="billing-info-title">
      <Stack gap="md">
        <Title order={3} id="billing-info-title">
          Billing Information
        </Title>
        {empty ? (
          <Text c="dimmed">{NO_BILLING_INFO}</Text>
        ) : (
          <Stack gap={6}>
            {card ? <Line label="Card">{card}</Line> : null}
            {email ? <Line label="Billing e-mail">{email}</Line> : null}
            {name ? <Line label="Name">{name}</Line> : null}
            {phone ? <Line label="Phone">{phone}</Line> : null}
          </Stack>
        )}
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconCreditCard size={16} aria-hidden="true" />}
            loading={managing}
            onClick={onManage}
          >
            Manage Billing Details
          </Button>
          <Button leftSection={<IconReceipt size={16} aria-hidden="true" />} onClick={onUpdateSubscription}>
            Update Subscription
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
