import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import {
  Button,
  Checkbox,
  Group,
  MultiSelect,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { webhookInput, type Project, type Webhook, type WebhookInput } from '@vexil/core';
import { applyFieldErrors, FormFailure, formFailureMessage } from '../../../components/form-failure';
import { closeModal, showModal } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import { useCreateWebhook } from '../../../entities/webhooks/api/create-webhook';
import { useUpdateWebhook } from '../../../entities/webhooks/api/update-webhook';
import { ALL, EVENT_KIND_OPTIONS } from './event-kinds';
import { WebhookSecret } from './webhook-secret';

export const WEBHOOK_CREATED_MESSAGE = 'Webhook created.';
export const WEBHOOK_SAVED_MESSAGE = 'Webhook saved.';

type FormValues = z.input<typeof webhookInput>;

const FIELDS = ['url', 'description', 'events', 'environmentKeys', 'enabled'] as const;

function valuesOf(webhook: Webhook | undefined): FormValues {
  return {
    url: webhook?.url ?? '',
    description: webhook?.description ?? '',
    // A new webhook hears of toggles by default: the change most receivers want.
    events: webhook ? [...webhook.events] : ['feature.toggled'],
    environmentKeys: webhook ? [...webhook.environmentKeys] : [],
    enabled: webhook?.enabled ?? true,
  };
}

export type WebhookFormProps = {
  project: Project;
  /** The webhook to edit; without it the form creates one in the project. */
  webhook?: Webhook;
};

/**
 * New and Edit webhook: the receiver's http(s) address, a description, the events it is sent (at least
 * one), the environments whose changes it hears of (none chosen: all of them) and whether it is on.
 * Once created, the modal shows the signing secret, the only time it can be seen.
 */
export function WebhookForm({ project, webhook }: WebhookFormProps) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const [failure, setFailure] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<FormValues, unknown, WebhookInput>({
    resolver: zodResolver(webhookInput),
    defaultValues: valuesOf(webhook),
  });

  const onSubmit = handleSubmit(async (input) => {
    setFailure(null);
    let saved: Webhook;
    try {
      saved = webhook
        ? await update.mutateAsync({ projectKey: project.key, webhookId: webhook.id, input })
        : await create.mutateAsync({ projectKey: project.key, input });
    } catch (error) {
      applyFieldErrors(error, FIELDS, setError);
      setFailure(formFailureMessage(error));
      return;
    }
    if (webhook) {
      notifySuccess(WEBHOOK_SAVED_MESSAGE);
      closeModal();
      return;
    }
    notifySuccess(WEBHOOK_CREATED_MESSAGE);
    if (saved.secret) setSecret(saved.secret);
    else closeModal();
  });

  if (secret) return <WebhookSecret secret={secret} onDone={() => closeModal()} />;

  const environments = project.environments.map((environment) => ({
    value: environment.key,
    label: environment.name,
  }));

  return (
    <form onSubmit={onSubmit} noValidate aria-label={webhook ? 'Edit webhook' : 'New webhook'}>
      <Stack gap="md">
        <FormFailure message={failure} />
        <Controller
          control={control}
          name="url"
          render={({ field, fieldState }) => (
            <TextInput
              label="Payload URL"
              description="Vexil POSTs each event there as JSON."
              placeholder="https://example.com/hooks/vexil"
              type="url"
              required
              data-autofocus
              autoComplete="off"
              spellCheck={false}
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="description"
          render={({ field, fieldState }) => (
            <Textarea
              label="Description"
              placeholder="What receives it, e.g. the deploy bot"
              autosize
              minRows={1}
              maxRows={4}
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="events"
          render={({ field, fieldState }) => (
            <Checkbox.Group
              label="Events"
              description="The changes this webhook is sent."
              required
              value={field.value}
              onChange={(value) => field.onChange(value)}
              error={fieldState.error?.message}
            >
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
                {EVENT_KIND_OPTIONS.map((option) => (
                  <Checkbox key={option.value} value={option.value} label={option.label} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
          )}
        />
        <Controller
          control={control}
          name="environmentKeys"
          render={({ field, fieldState }) => (
            <MultiSelect
              label="Environments"
              description="Changes in these environments only; none chosen means all of them."
              placeholder={field.value?.length ? undefined : ALL}
              data={environments}
              value={field.value ?? []}
              onChange={field.onChange}
              onBlur={field.onBlur}
              clearable
              searchable
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="enabled"
          render={({ field }) => (
            <Switch
              label="Active"
              description="An inactive webhook is sent nothing until it is switched on again."
              checked={field.value ?? true}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              onBlur={field.onBlur}
            />
          )}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            {webhook ? 'Save webhook' : 'Create webhook'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens New webhook (or Edit webhook) on the modal stack. A click beside it does not close it. */
export function openWebhookForm(props: WebhookFormProps): string {
  return showModal({
    title: props.webhook ? 'Edit webhook' : 'New webhook',
    size: 'lg',
    closeOnClickOutside: false,
    children: <WebhookForm {...props} />,
  });
}
