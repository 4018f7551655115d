import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import {
  billingContactInput,
  isOrganisationAdmin,
  type BillingContactInput,
  type BillingInfo,
} from '@vexil/core';
import { applyFieldErrors, FormFailure, formFailureMessage } from '../../../components/form-failure';
import { LoadError } from '../../../components/load-error';
import { notifySuccess } from '../../../lib/notify';
import { adminPath } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useBillingInfo } from '../../../entities/billing/api/get-billing-info';
import { useSaveLocalContact } from '../../../entities/billing/api/save-local-contact';
import { BillingAdminOnly, BillingLoading } from './billing-admin';
import { cardLine } from './billing-info-card';

/** The local provider keeps no card: its Manage Billing Details page says so. */
export const NO_CARD_ON_FILE = 'No card on file (self-hosted billing)';
export const CONTACT_SAVED = 'Billing details saved.';

const FIELDS = ['email', 'name', 'phone'] as const;

export function BackToBilling() {
  return (
    <Anchor component={Link} to={adminPath('billing')} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden="true" />
        Billing
      </Group>
    </Anchor>
  );
}

function ContactForm({ info }: { info: BillingInfo }) {
  const navigate = useNavigate();
  const save = useSaveLocalContact();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm({
    resolver: zodResolver(billingContactInput),
    defaultValues: {
      email: info.customer?.email ?? '',
      name: info.customer?.name ?? '',
      phone: info.customer?.phone ?? '',
    },
  });

  const onSubmit = handleSubmit(async (values: BillingContactInput) => {
    setFailure(null);
    try {
      await save.mutateAsync(values);
    } catch (error) {
      applyFieldErrors(error, FIELDS, setError);
      setFailure(formFailureMessage(error));
      return;
    }
    notifySuccess(CONTACT_SAVED);
    await navigate(adminPath('billing'));
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Billing details">
      <Stack gap="md">
        <FormFailure message={failure} />
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            Card
          </Text>
          <Text size="sm" c="dimmed">
            {cardLine(info) ?? NO_CARD_ON_FILE}
          </Text>
        </Stack>
        <Controller
          control={control}
          name="email"
          render={({ field, fieldState }) => (
            <TextInput
              label="Billing e-mail"
              description="Where invoices and billing questions go."
              type="email"
              autoComplete="email"
              data-autofocus
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => (
            <TextInput label="Name" autoComplete="name" error={fieldState.error?.message} {...field} />
          )}
        />
        <Controller
          control={control}
          name="phone"
          render={({ field, fieldState }) => (
            <TextInput
              label="Phone"
              type="tel"
              autoComplete="tel"
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" component={Link} to={adminPath('billing')}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ManageScreen() {
  const info = useBillingInfo();
  let body;
  if (info.isError && !info.data)
    body = (
      <LoadError
        title="We could not load the billing information."
        error={info.error}
        retrying={info.isFetching}
        onRetry={() => void info.refetch()}
      />
    );
  else if (!info.data) body = <BillingLoading />;
  else body = <ContactForm info={info.data} />;
  return (
    <Stack gap="lg" maw={560}>
      <Stack gap={4}>
        <BackToBilling />
        <Title order={2}>Billing details</Title>
        <Text c="dimmed" size="sm">
          The billing contact of this organisation. This installation bills without a payment provider, so
          there is no card to manage.
        </Text>
      </Stack>
      <Paper withBorder radius="md" p="lg">
        {body}
      </Paper>
    </Stack>
  );
}

/**
 * /admin/billing/manage: Manage Billing Details with the local (self-hosted) provider
 * (docs/adr/0016-billing-providers.md): the billing contact (e-mail, name, phone) and the card line.
 */
export function LocalManagePage() {
  const { principalUser } = useSession();
  return isOrganisationAdmin(principalUser) ? <ManageScreen /> : <BillingAdminOnly />;
}
