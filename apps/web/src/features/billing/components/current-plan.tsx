import { Alert, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconClockHour4 } from '@tabler/icons-react';
import type { Subscription } from '@vexil/core';
import { INACTIVE_ACCOUNT } from '@vexil/core/messages';
import { days, formatCents, pricePerSeatPerMonth } from './billing-format';

function StatusBadge({ subscription }: { subscription: Subscription }) {
  if (subscription.status === 'inactive')
    return (
      <Badge color="red" variant="light">
        Inactive
      </Badge>
    );
  if (subscription.inTrial)
    return (
      <Badge color="blue" variant="light">
        Trial
      </Badge>
    );
  return (
    <Badge color="teal" variant="light">
      Active
    </Badge>
  );
}

function PriceLines({ subscription }: { subscription: Subscription }) {
  const { price, quantity, total, percentOff, amountOff } = subscription;
  if (!price || price.amount === 0) return <Text c="dimmed">No charge</Text>;
  const per = price.interval === 'year' ? 'year' : 'month';
  return (
    <Stack gap={2}>
      <Text>
        <Text span fw={700} fz="xl">
          {pricePerSeatPerMonth(price)}
        </Text>{' '}
        <Text span c="dimmed" size="sm">
          per seat per month{price.interval === 'year' ? ', billed yearly' : ''}
        </Text>
      </Text>
      <Text size="sm" c="dimmed">
        {quantity === 1 ? '1 seat' : `${quantity} seats`}
        {total > 0 ? ` · ${formatCents(total, price.currency)} per ${per}` : ''}
        {percentOff ? ` · ${percentOff}% off` : ''}
        {amountOff ? ` · ${formatCents(amountOff, price.currency)} off` : ''}
      </Text>
    </Stack>
  );
}

/**
 * docs/product.md §2 "Billing" Current Plan: the plan's name and state, its price (docs/product.md §9: per seat per
 * month), and the trial notices: the days left, or that the account is inactive.
 */
export function CurrentPlan({ subscription }: { subscription: Subscription | null }) {
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="current-plan-title">
      <Stack gap="md">
        <Title order={3} id="current-plan-title">
          Current Plan
        </Title>
        {subscription ? (
          <>
            <Group gap="sm">
              <Text fw={600} fz="lg">
                {subscription.price?.productName ?? 'No plan'}
              </Text>
              <StatusBadge subscription={subscription} />
            </Group>
            <PriceLines subscription={subscription} />
            {subscription.status === 'inactive' ? (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertTriangle size={18} aria-hidden="true" />}
                title={INACTIVE_ACCOUNT}
              >
                Your features keep evaluating, but nobody can change them until the organisation has a plan.
              </Alert>
            ) : subscription.inTrial ? (
              <Alert color="blue" variant="light" icon={<IconClockHour4 size={18} aria-hidden="true" />}>
                {`Your trial ends in ${days(Math.max(0, subscription.daysUntilEndOfTrial ?? 0))}. `}
                Choose a plan to keep changing your features after it ends.
              </Alert>
            ) : null}
          </>
        ) : (
          <Text c="dimmed">This organisation has no subscription, so no plan limits apply.</Text>
        )}
      </Stack>
    </Paper>
  );
}
