import { useState, type ReactNode } from 'react';
import { Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  FREE_PRICE_ID,
  isOrganisationAdmin,
  type PlanChangePreview,
  type Product,
  type ProductPrice,
} from '@vexil/core';
import { PLAN_NOT_ON_SALE } from '@vexil/core/messages';
import { FormFailure, formFailureMessage } from '../../../components/form-failure';
import { LoadError } from '../../../components/load-error';
import { notifySuccess } from '../../../lib/notify';
import { adminPath } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useChangePreview } from '../../../entities/billing/api/get-change-preview';
import { useProducts } from '../../../entities/billing/api/get-products';
import { useUsage } from '../../../entities/billing/api/get-usage';
import { useLocalSubscribe } from '../../../entities/billing/api/local-subscribe';
import { BillingAdminOnly, BillingLoading } from './billing-admin';
import { INTERVAL_LABELS, findPrice, formatCents, pricePerSeatPerMonth } from './billing-format';
import { BackToBilling } from './local-manage-page';
import { PlanConsequences } from './plan-consequences';

/** The chosen plan: a product's price, or the Free plan. */
type Choice = { name: string; price: ProductPrice | null };

function choiceOf(products: readonly Product[], priceId: string): Choice | null {
  if (priceId === FREE_PRICE_ID) return { name: 'Free', price: null };
  const found = findPrice(products, priceId);
  return found ? { name: found.product.name, price: found.price } : null;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={500} w="40%">
        {label}
      </Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

function Confirmation({
  priceId,
  choice,
  seats,
  preview,
}: {
  priceId: string;
  choice: Choice;
  seats: number;
  preview: PlanChangePreview;
}) {
  const navigate = useNavigate();
  const subscribe = useLocalSubscribe();
  const [failure, setFailure] = useState<string | null>(null);
  const { price } = choice;

  const confirm = async () => {
    setFailure(null);
    try {
      await subscribe.mutateAsync({ priceId });
    } catch (error) {
      setFailure(formFailureMessage(error));
      return;
    }
    notifySuccess(`You are now on the ${choice.name} plan.`);
    await navigate(adminPath('billing'));
  };

  return (
    <Stack gap="md">
      <FormFailure message={failure} />
      <PlanConsequences preview={preview} />
      <Table aria-label="Your new plan" verticalSpacing={8}>
        <Table.Tbody>
          <Row label="Plan">{choice.name}</Row>
          <Row label="Billing">{price ? INTERVAL_LABELS[price.interval] : 'No charge'}</Row>
          <Row label="Seats">{seats}</Row>
          <Row label="Price">{price ? `${pricePerSeatPerMonth(price)} per seat per month` : '$0'}</Row>
          {price ? (
            <Row label="Total">
              {`${formatCents(price.amount * seats, price.currency)} per ${price.interval}`}
            </Row>
          ) : null}
        </Table.Tbody>
      </Table>
      <Text size="sm" c="dimmed">
        This installation bills without a payment provider: confirming changes the plan and its limits at
        once, and nothing is charged here.
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" component={Link} to={adminPath('billing')}>
          Cancel
        </Button>
        <Button loading={subscribe.isPending} onClick={() => void confirm()}>
          Confirm
        </Button>
      </Group>
    </Stack>
  );
}

function CheckoutScreen() {
  const [searchParams] = useSearchParams();
  const priceId = searchParams.get('price') ?? '';
  const products = useProducts();
  const usage = useUsage();
  const choice = products.data ? choiceOf(products.data, priceId) : null;
  // Asked only for a plan on sale: what the change would mean, to say before Confirm.
  const preview = useChangePreview(choice ? priceId : '');
  const queries = [products, usage, ...(choice ? [preview] : [])];

  let body: ReactNode;
  const failed = queries.find((query) => query.isError && !query.data);
  if (failed)
    body = (
      <LoadError
        title="We could not load the plans."
        error={failed.error}
        retrying={queries.some((query) => query.isFetching)}
        onRetry={() => {
          for (const query of queries) if (query.isError) void query.refetch();
        }}
      />
    );
  else if (!products.data || !usage.data || (choice && !preview.data)) body = <BillingLoading />;
  else {
    body = choice ? (
      <Confirmation
        priceId={priceId}
        choice={choice}
        seats={Math.max(1, usage.data.seats)}
        preview={preview.data!}
      />
    ) : (
      <Stack gap="sm" align="flex-start">
        <Text>{PLAN_NOT_ON_SALE}</Text>
        <Button variant="default" component={Link} to={adminPath('billing')}>
          Choose another plan
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={560}>
      <Stack gap={4}>
        <BackToBilling />
        <Title order={2}>Confirm your plan</Title>
      </Stack>
      <Paper withBorder radius="md" p="lg">
        {body}
      </Paper>
    </Stack>
  );
}

/**
 * /admin/billing/checkout?price={priceId}: Update Subscription with the local (self-hosted) provider
 * (docs/adr/0016-billing-providers.md): the plan, interval, seats and price to confirm, and what the
 * change would mean (the new plan's limits already passed, what would be lost); Confirm puts the
 * organisation on it and goes back to the Billing tab.
 */
export function LocalCheckoutPage() {
  const { principalUser } = useSession();
  return isOrganisationAdmin(principalUser) ? <CheckoutScreen /> : <BillingAdminOnly />;
}
