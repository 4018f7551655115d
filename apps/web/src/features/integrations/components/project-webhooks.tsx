import type { ReactNode } from 'react';
import { ActionIcon, Badge, Button, Group, Menu, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  IconDots,
  IconKey,
  IconList,
  IconPencil,
  IconPlus,
  IconSend,
  IconTrash,
  IconWebhook,
} from '@tabler/icons-react';
import { MAX_WEBHOOKS_PER_PROJECT, type Project, type Webhook } from '@vexil/core';
import { DisabledReason } from '../../../components/disabled-reason';
import { EmptyState } from '../../../components/empty-state';
import { errorReason, LoadError } from '../../../components/load-error';
import { TruncatedText } from '../../../components/truncated-text';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDeleteWebhook } from '../../../entities/webhooks/api/delete-webhook';
import { useWebhooks } from '../../../entities/webhooks/api/get-webhooks';
import { useRotateWebhookSecret } from '../../../entities/webhooks/api/rotate-webhook-secret';
import { useTestWebhook } from '../../../entities/webhooks/api/test-webhook';
import { DeliveryStatusBadge, notifyDeliveryOutcome, RelativeTime } from './delivery-outcome';
import { ALL, EVENT_KIND_LABELS } from './event-kinds';
import { openWebhookDeliveries } from './webhook-deliveries';
import { openWebhookForm } from './webhook-form';
import { openWebhookSecretModal } from './webhook-secret';

export const NO_WEBHOOKS_MESSAGE = 'This project has no webhooks yet.';
export const WEBHOOK_DELETED_MESSAGE = 'Webhook deleted.';
export const WEBHOOK_DELETE_FAILED_MESSAGE = 'There was an error deleting the webhook';
export const ROTATE_FAILED_MESSAGE = 'There was an error rotating the secret';
export const TEST_FAILED_MESSAGE = 'There was an error sending the test delivery';
export const WEBHOOK_LIMIT_MESSAGE = `A project can have at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks.`;

const TITLE_ID = 'webhooks-title';

function failed(message: string, error: unknown): void {
  const reason = errorReason(error);
  notifyError(reason ? `${message}: ${reason}` : message);
}

/** A labelled fact of a webhook card ("Events", "Environments"...). */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="center" miw={0}>
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      {children}
    </Group>
  );
}

function Events({ webhook }: { webhook: Webhook }) {
  return (
    <Group gap={4} miw={0}>
      {webhook.events.map((event) => (
        <Badge key={event} variant="light" color="gray" tt="none" size="sm">
          {EVENT_KIND_LABELS[event]}
        </Badge>
      ))}
    </Group>
  );
}

function Environments({ webhook, project }: { webhook: Webhook; project: Project }) {
  if (webhook.environmentKeys.length === 0) return <Text size="sm">{ALL}</Text>;
  const names = webhook.environmentKeys.map(
    (key) => project.environments.find((environment) => environment.key === key)?.name ?? key,
  );
  return <Text size="sm">{names.join(', ')}</Text>;
}

function LastDelivery({ webhook }: { webhook: Webhook }) {
  if (!webhook.lastDelivery) {
    return (
      <Text size="sm" c="dimmed">
        Never
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="nowrap">
      <DeliveryStatusBadge status={webhook.lastDelivery.status} />
      <RelativeTime date={webhook.lastDelivery.at} />
    </Group>
  );
}

function WebhookCard({ webhook, project }: { webhook: Webhook; project: Project }) {
  const test = useTestWebhook();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhook();
  const ids = { projectKey: project.key, webhookId: webhook.id };

  const onTest = async () => {
    try {
      notifyDeliveryOutcome(await test.mutateAsync(ids), 'Test delivery');
    } catch (error) {
      failed(TEST_FAILED_MESSAGE, error);
    }
  };

  const onRotate = async () => {
    const confirmed = await confirm({
      title: 'Rotate signing secret',
      message: `Rotate the signing secret of the webhook to ${webhook.url}? The current secret stops working at once: give the receiver the new one.`,
      confirmLabel: 'Rotate secret',
      danger: true,
    });
    if (!confirmed) return;
    let rotated: Webhook;
    try {
      rotated = await rotate.mutateAsync(ids);
    } catch (error) {
      failed(ROTATE_FAILED_MESSAGE, error);
      return;
    }
    if (rotated.secret) openWebhookSecretModal(rotated.secret);
  };

  const onDelete = async () => {
    const confirmed = await confirm({
      title: 'Delete webhook',
      message: `Delete the webhook to ${webhook.url}? Vexil stops sending it events, and its delivery log is deleted.`,
      confirmLabel: 'Delete webhook',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await remove.mutateAsync(ids);
    } catch (error) {
      failed(WEBHOOK_DELETE_FAILED_MESSAGE, error);
      return;
    }
    notifySuccess(WEBHOOK_DELETED_MESSAGE);
  };

  return (
    <Paper component="li" withBorder radius="md" p="md" aria-label={webhook.url}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={2} miw={0} style={{ flex: '1 1 280px' }}>
            <Group gap="xs" wrap="nowrap" miw={0}>
              <IconWebhook size={18} aria-hidden="true" style={{ flexShrink: 0 }} />
              <TruncatedText text={webhook.url} fw={500} ff="monospace" size="sm" />
              <Badge
                color={webhook.enabled ? 'teal' : 'gray'}
                variant="light"
                miw="max-content"
                style={{ flexShrink: 0 }}
              >
                {webhook.enabled ? 'Active' : 'Inactive'}
              </Badge>
            </Group>
            {webhook.description ? (
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {webhook.description}
              </Text>
            ) : null}
          </Stack>
          <Group gap="xs" wrap="wrap">
            <Button
              size="xs"
              variant="default"
              leftSection={<IconSend size={14} aria-hidden="true" />}
              loading={test.isPending}
              onClick={() => void onTest()}
            >
              Send test
            </Button>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconList size={14} aria-hidden="true" />}
              onClick={() => openWebhookDeliveries(project.key, webhook)}
            >
              Deliveries
            </Button>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconPencil size={14} aria-hidden="true" />}
              onClick={() => openWebhookForm({ project, webhook })}
            >
              Edit
            </Button>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon
                  variant="default"
                  size={30}
                  aria-label={`More actions for ${webhook.url}`}
                  loading={rotate.isPending || remove.isPending}
                >
                  <IconDots size={16} aria-hidden="true" />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  leftSection={<IconKey size={14} aria-hidden="true" />}
                  onClick={() => void onRotate()}
                >
                  Rotate secret
                </Menu.Item>
                <Menu.Item
                  color="red"
                  leftSection={<IconTrash size={14} aria-hidden="true" />}
                  onClick={() => void onDelete()}
                >
                  Delete
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
        <Stack gap={6}>
          <Fact label="Events">
            <Events webhook={webhook} />
          </Fact>
          <Fact label="Environments">
            <Environments webhook={webhook} project={project} />
          </Fact>
          <Fact label="Last delivery">
            <LastDelivery webhook={webhook} />
          </Fact>
        </Stack>
      </Stack>
    </Paper>
  );
}

function NewWebhookButton({ project, count }: { project: Project; count: number }) {
  const full = count >= MAX_WEBHOOKS_PER_PROJECT;
  return (
    <DisabledReason denial={full ? WEBHOOK_LIMIT_MESSAGE : null}>
      <Button
        leftSection={<IconPlus size={16} aria-hidden="true" />}
        disabled={full}
        onClick={() => openWebhookForm({ project })}
      >
        New webhook
      </Button>
    </DisabledReason>
  );
}

/**
 * Admin › Projects › {project}, Webhooks: the project's outgoing webhooks, each with its address, events,
 * environments, whether it is on and how its last delivery went; New webhook, Send test, Deliveries (the
 * log, with Resend), Edit, Rotate secret and Delete.
 */
export function ProjectWebhooks({ project }: { project: Project }) {
  const list = useWebhooks(project.key);

  let body: ReactNode;
  if (list.isPending) {
    body = (
      <Stack gap="xs" role="status" aria-label="Loading webhooks">
        <Skeleton height={110} radius="md" />
      </Stack>
    );
  } else if (list.isError) {
    body = (
      <LoadError
        title="We could not load the webhooks."
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (list.data.length === 0) {
    body = (
      <Paper withBorder radius="md">
        <EmptyState py="lg" maw={520} gap="xs">
          <Text fw={500}>{NO_WEBHOOKS_MESSAGE}</Text>
          <Text size="sm" c="dimmed">
            A webhook sends each change you choose, such as a feature turned on, to your own service as a
            signed JSON POST.
          </Text>
        </EmptyState>
      </Paper>
    );
  } else {
    body = (
      <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Webhooks">
        {list.data.map((webhook) => (
          <WebhookCard key={webhook.id} webhook={webhook} project={project} />
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby={TITLE_ID}>
      <Group justify="space-between" align="center">
        <Stack gap={2}>
          <Title order={3} id={TITLE_ID}>
            Webhooks
          </Title>
          <Text size="sm" c="dimmed">
            Send this project’s changes to your own services.
          </Text>
        </Stack>
        <NewWebhookButton project={project} count={list.data?.length ?? 0} />
      </Group>
      {body}
    </Stack>
  );
}
