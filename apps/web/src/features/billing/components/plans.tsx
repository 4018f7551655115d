import type { ReactNode } from 'react';
import {
  Badge,
  Button,
  Group,
  List,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCheck, IconMail } from '@tabler/icons-react';
import {
  FREE_PLAN_LIMITS,
  FREE_PRICE_ID,
  type PriceInterval,
  type Product,
  type Subscription,
} from '@vexil/core';
import { INTERVAL_LABELS, formatCents, formatMoney, pricePerSeatPerMonth, priceOf } from './billing-format';

export const PLANS_TITLE_ID = 'plans-title';

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** docs/product.md §9 "Free plan": a single seat, 1 project, 2 environments. */
const FREE_FEATURES = [
  FREE_PLAN_LIMITS.maxOrganisationUsers === 1
    ? 'A single seat'
    : plural(FREE_PLAN_LIMITS.maxOrganisationUsers ?? 0, 'seat'),
  plural(FREE_PLAN_LIMITS.maxProjects ?? 0, 'project'),
  plural(FREE_PLAN_LIMITS.maxEnvironments ?? 0, 'environment'),
  'Unlimited features',
];

/** docs/product.md §9 "Enterprise": unlimited, contact sales. */
const ENTERPRISE_FEATURES = [
  'Unlimited seats, projects and environments',
  'Unlimited features, application users and impressions',
  'Audit log and experiments',
  'A price made for your organisation',
];

function FeatureList({ features }: { features: readonly string[] }) {
  if (features.length === 0) return null;
  return (
    <List
      size="sm"
      spacing={6}
      icon={
        <ThemeIcon size={18} radius="xl" variant="light" color="teal" aria-hidden="true">
          <IconCheck size={12} />
        </ThemeIcon>
      }
    >
      {features.map((feature) => (
        <List.Item key={feature}>{feature}</List.Item>
      ))}
    </List>
  );
}

function PlanCard({
  name,
  current,
  currentLabel = 'Current plan',
  price,
  priceNote,
  features,
  action,
}: {
  name: string;
  current: boolean;
  /** The badge of the current plan: "Current plan", or "Current plan (trial)" during its trial. */
  currentLabel?: string;
  price: ReactNode;
  priceNote: ReactNode;
  features: readonly string[];
  action: ReactNode;
}) {
  return (
    <Paper
      withBorder
      radius="md"
      p="lg"
      component="article"
      aria-label={`${name} plan`}
      style={current ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}
    >
      <Stack gap="md" h="100%">
        <Group justify="space-between" gap="xs">
          <Title order={4}>{name}</Title>
          {current ? <Badge variant="light">{currentLabel}</Badge> : null}
        </Group>
        <Stack gap={0}>
          <Text fw={700} fz={28} lh={1.2}>
            {price}
          </Text>
          <Text size="sm" c="dimmed">
            {priceNote}
          </Text>
        </Stack>
        <FeatureList features={features} />
        <Group mt="auto" pt="xs">
          {action}
        </Group>
      </Stack>
    </Paper>
  );
}

/** Whether the organisation is on `product` billed every `interval`, paid for (not a trial, not over). */
function isCurrent(subscription: Subscription | null, product: Product, interval: PriceInterval): boolean {
  return (
    subscription !== null &&
    subscription.status === 'active' &&
    !subscription.inTrial &&
    subscription.price?.productName === product.name &&
    subscription.price.interval === interval
  );
}

/** Whether the organisation is trying `product` now: its trial is of that plan, whichever interval. */
function isOnTrialOf(subscription: Subscription | null, product: Product): boolean {
  return (
    subscription !== null &&
    subscription.status === 'active' &&
    subscription.inTrial &&
    subscription.price?.productName === product.name
  );
}

/** The Free plan is current for an active subscription that costs nothing. */
function isFreeCurrent(subscription: Subscription | null): boolean {
  return (
    subscription !== null &&
    subscription.status === 'active' &&
    !subscription.inTrial &&
    (subscription.price === null || subscription.price.amount === 0)
  );
}

export type PlansProps = {
  products: readonly Product[];
  subscription: Subscription | null;
  interval: PriceInterval;
  onInterval: (interval: PriceInterval) => void;
  /** The price being changed to, while its call is under way. */
  choosing: string | null;
  onChoose: (priceId: string) => void;
  /** Where the Enterprise card's Contact us leads (BILLING_SALES_CONTACT); null: no Enterprise card. */
  contactHref: string | null;
};

/**
 * docs/product.md §2 "Plans": the Monthly/Yearly toggle; a fixed Free card, a card per product from the server
 * and, when the server names a sales contact, an Enterprise card with Contact us. Prices are per seat per
 * month (docs/product.md §9), a yearly one spread over 12 months. The plan on trial is marked current, and
 * its button buys it rather than offering to choose it.
 */
export function Plans({
  products,
  subscription,
  interval,
  onInterval,
  choosing,
  onChoose,
  contactHref,
}: PlansProps) {
  const cards = products.length + (contactHref ? 2 : 1);
  const freeCurrent = isFreeCurrent(subscription);
  // Nothing, in the currency the plans are sold in.
  const currency = products.flatMap((product) => Object.values(product.prices))[0]?.currency ?? 'usd';
  return (
    <Stack gap="md" component="section" aria-labelledby={PLANS_TITLE_ID}>
      <Group justify="space-between" align="center" gap="sm">
        <Title order={3} id={PLANS_TITLE_ID} tabIndex={-1}>
          Plans
        </Title>
        <SegmentedControl
          aria-label="Billing interval"
          value={interval}
          onChange={(value) => onInterval(value as PriceInterval)}
          data={[
            { value: 'month', label: INTERVAL_LABELS.month },
            { value: 'year', label: INTERVAL_LABELS.year },
          ]}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: Math.min(cards, 4) }} spacing="md">
        <PlanCard
          name="Free"
          current={freeCurrent}
          price={formatMoney(0, currency)}
          priceNote="free for a single seat"
          features={FREE_FEATURES}
          action={
            freeCurrent ? null : (
              <Button
                variant="default"
                disabled={choosing !== null && choosing !== FREE_PRICE_ID}
                loading={choosing === FREE_PRICE_ID}
                onClick={() => onChoose(FREE_PRICE_ID)}
              >
                Choose Free
              </Button>
            )
          }
        />
        {products.map((product) => {
          const price = priceOf(product, interval);
          const current = isCurrent(subscription, product, interval);
          const trial = isOnTrialOf(subscription, product);
          const choose = trial ? `Buy ${product.name}` : `Choose ${product.name}`;
          return (
            <PlanCard
              key={product.id}
              name={product.name}
              current={current || trial}
              currentLabel={trial ? 'Current plan (trial)' : 'Current plan'}
              price={price ? pricePerSeatPerMonth(price) : '—'}
              priceNote={
                price
                  ? interval === 'year'
                    ? `per seat per month, billed yearly (${formatCents(price.amount, price.currency)} a seat)`
                    : 'per seat per month'
                  : `Not sold ${interval === 'year' ? 'yearly' : 'monthly'}`
              }
              features={product.features}
              action={
                price ? (
                  <Button
                    variant={current ? 'default' : 'filled'}
                    disabled={current || (choosing !== null && choosing !== price.id)}
                    loading={choosing === price.id}
                    onClick={() => onChoose(price.id)}
                    aria-label={current ? `${product.name} is your current plan` : choose}
                  >
                    {current ? 'Current plan' : choose}
                  </Button>
                ) : null
              }
            />
          );
        })}
        {contactHref ? (
          <PlanCard
            name="Enterprise"
            current={false}
            price="Custom"
            priceNote="unlimited, priced with you"
            features={ENTERPRISE_FEATURES}
            action={
              <Button
                component="a"
                href={contactHref}
                variant="default"
                leftSection={<IconMail size={16} aria-hidden="true" />}
              >
                Contact us
              </Button>
            }
          />
        ) : null}
      </SimpleGrid>
    </Stack>
  );
}
