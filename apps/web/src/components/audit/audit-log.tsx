import { Alert, Anchor, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconLock, IconRefresh } from '@tabler/icons-react';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { isApiError } from '../../lib/api-client';
import { formatDate } from '../../lib/format';
import { featureDetailPath, projectFeaturePath } from '../../lib/paths';
import type { AuditItem, AuditPage } from '@vexil/core';
import { AUDIT_NOT_ON_PLAN } from '@vexil/core/messages';
import { AuditMarkdown } from './audit-markdown';

dayjs.extend(relativeTime);

/** The version an entry's change created, in the feature's History tab. */
function VersionLink({ version }: { version: NonNullable<AuditItem['version']> }) {
  const { number, projectKey, featureKey, environmentKey } = version;
  const to =
    environmentKey === null
      ? `${projectFeaturePath(projectKey, featureKey)}/history`
      : featureDetailPath(projectKey, environmentKey, featureKey, 'history');
  return (
    <Anchor component={Link} to={to} size="sm">
      Version {number} in the history
    </Anchor>
  );
}

function AuditEntry({ item }: { item: AuditItem }) {
  return (
    <Card withBorder radius="md" padding="md" component="li">
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
          <Text fw={600}>{item.title}</Text>
          <Text size="xs" c="dimmed" component="time" dateTime={item.createdDate}>
            {dayjs(item.createdDate).fromNow()} · {formatDate(item.createdDate)}
          </Text>
        </Group>
        <AuditMarkdown markdown={item.description} />
        {item.version ? <VersionLink version={item.version} /> : null}
      </Stack>
    </Card>
  );
}

/** What an audit list needs from its query: the pages loaded so far, and a way back to page 0. */
export type AuditQuery = UseInfiniteQueryResult<InfiniteData<AuditPage>> & { refresh: () => Promise<void> };

/**
 * docs/product.md §2 audit log (the admin Audit tab and a feature's Audit tab): newest first, 50 at a time ("Load
 * More"; "Refresh" goes back to the first page), each entry's title, markdown description, relative time
 * and date. Plans without the audit log get the reason and a way to upgrade.
 */
export function AuditLog({
  audit,
  emptyText,
  filters,
}: {
  audit: AuditQuery;
  emptyText: string;
  /** Shown under the heading, above the entries (Admin › Audit's filters). */
  filters?: ReactNode;
}) {
  const items = audit.data?.pages.flatMap((page) => page.content) ?? [];

  if (audit.isError && !audit.data) {
    const error = audit.error;
    if (isApiError(error) && error.status === 403) {
      return (
        <Alert color="yellow" variant="light" icon={<IconLock size={18} aria-hidden="true" />} title="Audit">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{AUDIT_NOT_ON_PLAN}</Text>
            <Anchor component={Link} to="/admin/billing" size="sm" fw={600}>
              Upgrade your plan
            </Anchor>
          </Stack>
        </Alert>
      );
    }
    return (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
        <Group justify="space-between" gap="sm">
          <Text size="sm">
            {isApiError(error) && error.title ? error.title : 'We could not load the audit log.'}
          </Text>
          <Button size="xs" variant="default" onClick={() => void audit.refresh()}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} fz="xl">
          Audit
        </Title>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconRefresh size={14} aria-hidden="true" />}
          loading={audit.isFetching && !audit.isFetchingNextPage}
          onClick={() => void audit.refresh()}
        >
          Refresh
        </Button>
      </Group>
      {filters}
      {audit.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading the audit log">
          <Skeleton height={72} />
          <Skeleton height={72} />
          <Skeleton height={72} />
        </Stack>
      ) : items.length === 0 ? (
        <Text c="dimmed">{emptyText}</Text>
      ) : (
        <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Audit log">
          {items.map((item) => (
            <AuditEntry key={item.id} item={item} />
          ))}
        </Stack>
      )}
      {audit.isFetchNextPageError ? (
        <Alert color="red" variant="light" role="alert">
          We could not load more of the audit log.
        </Alert>
      ) : null}
      {audit.hasNextPage ? (
        <Group justify="center">
          <Button
            variant="default"
            loading={audit.isFetchingNextPage}
            onClick={() => void audit.fetchNextPage()}
          >
            Load More
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
