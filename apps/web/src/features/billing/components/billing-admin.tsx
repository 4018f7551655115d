import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { BILLING_ADMIN_ONLY, isOrganisationAdmin, type PriceInterval } from '@vexil/core';
import { LoadError } from '../../../components/load-error';
import { useFlag } from '../../../lib/flags';
import { useSession } from '../../../lib/session';
import { useBillingInfo } from '../../../entities/billing/api/get-billing-info';
import { useProducts } from '../../../entities/billing/api/get-products';
import { useSalesContact } from '../../../entities/billing/api/get-sales-contact';
import { useUsage } from '../../../entities/billing/api/get-usage';
import { useChangeSubscription } from '../../../entities/billing/api/change-subscription';
import { getChangePreview } from '../../../entities/billing/api/get-change-preview';
import { billingKeys } from '../../../entities/billing/api/query-keys';
import { confirm } from '../../../lib/modals';
import { useManageSubscription } from '../../../entities/billing/api/manage-subscription';
import { useOpenBillingUrl } from '../hooks/use-open-billing-url';
import { BillingInfoCard } from './billing-info-card';
import { changeFailureDetail, openChangeFailureDialog, openPortalFailureDialog } from './billing-dialogs';
import { BILLING_LOADING } from './billing-format';
import { CurrentPlan } from './current-plan';
import { PLANS_TITLE_ID, Plans } from './plans';
import { LimitsTable, UsageTable } from './plan-usage';
import { PlanConsequences } from './plan-consequences';

/** What others than organisation admins see on the Billing pages (docs/product.md §2). */
export function BillingAdminOnly() {
  return (
    <Stack gap="xs">
      <Title order={2}>Billing</Title>
      <Text c="dimmed">{BILLING_ADMIN_ONLY}</Text>
    </Stack>
  );
}

/** docs/product.md §2 "Billing": while the billing information loads ("Retrieving billing information..."). */
export function BillingLoading({ text = BILLING_LOADING }: { text?: string }) {
  return (
    <Group gap="sm" py="xl" role="status">
      <Loader size="sm" />
      <Text c="dimmed">{text}</Text>
    </Group>
  );
}

function PlansSection({
  interval,
  onInterval,
}: {
  interval: PriceInterval;
  onInterval: (interval: PriceInterval) => void;
}) {
  const { subscription } = useSession();
  const products = useProducts();
  // BILLING_SALES_CONTACT: where Contact us leads; without it (or when it cannot be read) no Contact us.
  const sales = useSalesContact();
  const contactHref = sales.data?.url ?? null;
  const change = useChangeSubscription();
  const open = useOpenBillingUrl();
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState<string | null>(null);

  /**
   * Where the provider changes the plan at once or in its own checkout, what the change would mean
   * is said here first; the local provider's checkout page says it before its Confirm.
   */
  const acceptsConsequences = async (priceId: string): Promise<boolean> => {
    setChecking(priceId);
    try {
      const preview = await queryClient.fetchQuery({
        queryKey: billingKeys.changePreview(priceId),
        queryFn: ({ signal }) => getChangePreview(priceId, signal),
        staleTime: 0,
      });
      if (preview.confirmsAtCheckout || (preview.exceeded.length === 0 && preview.lost.length === 0))
        return true;
      return await confirm({
        title: `Move to ${preview.plan}?`,
        message: <PlanConsequences preview={preview} />,
        confirmLabel: `Move to ${preview.plan}`,
      });
    } finally {
      setChecking(null);
    }
  };

  const choose = async (priceId: string) => {
    let url: string;
    try {
      if (!(await acceptsConsequences(priceId))) return;
      ({ url } = await change.mutateAsync({ subscriptionId: priceId }));
    } catch (error) {
      openChangeFailureDialog(changeFailureDetail(error), contactHref);
      return;
    }
    if (!open(url)) openChangeFailureDialog('Please try again later.', contactHref);
  };

  if (products.isError && !products.data)
    return (
      <LoadError
        title="We could not load the plans."
        error={products.error}
        retrying={products.isFetching}
        onRetry={() => void products.refetch()}
      />
    );
  if (!products.data) return <BillingLoading text="Retrieving the plans..." />;
  return (
    <Plans
      products={products.data}
      subscription={subscription}
      interval={interval}
      onInterval={onInterval}
      choosing={checking ?? (change.isPending ? change.variables.subscriptionId : null)}
      onChoose={(priceId) => void choose(priceId)}
      contactHref={contactHref}
    />
  );
}

function BillingScreen() {
  const { subscription } = useSession();
  const withImpressions = useFlag('impressions-limits');
  const info = useBillingInfo();
  const usage = useUsage();
  // Read with the rest, so the plans show with or without their Enterprise card at once.
  const sales = useSalesContact();
  const manage = useManageSubscription();
  const open = useOpenBillingUrl();
  const [interval, setInterval] = useState<PriceInterval>(subscription?.price?.interval ?? 'month');

  const manageDetails = async () => {
    try {
      const { url } = await manage.mutateAsync();
      if (!open(url)) openPortalFailureDialog();
    } catch {
      openPortalFailureDialog();
    }
  };

  const showPlans = () => {
    const title = document.getElementById(PLANS_TITLE_ID);
    title?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    title?.focus({ preventScroll: true });
  };

  const failed = (info.isError && !info.data) || (usage.isError && !usage.data);
  if (failed)
    return (
      <LoadError
        title="We could not load the billing information."
        error={info.error ?? usage.error}
        retrying={info.isFetching || usage.isFetching}
        onRetry={() => {
          if (info.isError) void info.refetch();
          if (usage.isError) void usage.refetch();
        }}
      />
    );
  if (!info.data || !usage.data || sales.isPending) return <BillingLoading />;

  return (
    <Stack gap="lg">
      <Title order={2}>Billing</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <BillingInfoCard
          info={info.data}
          managing={manage.isPending}
          onManage={() => void manageDetails()}
          onUpdateSubscription={showPlans}
        />
        <CurrentPlan subscription={subscription} />
        {subscription ? <LimitsTable limits={subscription.limits} withImpressions={withImpressions} /> : null}
        <UsageTable
          usage={usage.data}
          limits={subscription?.limits ?? null}
          withImpressions={withImpressions}
        />
      </SimpleGrid>
      <PlansSection interval={interval} onInterval={setInterval} />
    </Stack>
  );
}

/**
 * Admin › Billing (docs/product.md §2 "Billing", "Plans"): the billing information with Manage Billing Details
 * and Update Subscription, the current plan with its trial notices, limits and usage, and the plans on
 * sale. Organisation admins only; others are told so.
 */
export function BillingAdmin() {
  const { principalUser } = useSession();
  return isOrganisationAdmin(principalUser) ? <BillingScreen /> : <BillingAdminOnly />;
}
