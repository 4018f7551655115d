import type { ReactNode } from 'react';
import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconMessageCircle } from '@tabler/icons-react';
import type { ChangeRequest } from '@vexil/core';
import { approvalsText, RelativeTime, StateBadge } from './change-request-format';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

/**
 * The request's title and state, its environment, author, approvals so far, last activity and
 * description; who asked for changes, and why a suspended request stopped.
 */
export function ChangeRequestHeader({ request }: { request: ChangeRequest }) {
  return (
    <Stack gap="sm">
      <Group gap="sm" align="center" wrap="wrap">
        <Title order={1} style={{ overflowWrap: 'anywhere' }}>
          {request.title}
        </Title>
        <StateBadge state={request.state} />
      </Group>
      <Group gap="lg" wrap="wrap">
        <Fact label="Environment">{request.environmentName}</Fact>
        <Fact label="Author">{request.author.name}</Fact>
        <Fact label="Approvals">{approvalsText(request.approvals, request.minApprovals)}</Fact>
        <Fact label="Updated">
          <RelativeTime date={request.updatedDate} />
        </Fact>
      </Group>
      {request.description ? (
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{request.description}</Text>
      ) : null}
      {request.changesRequestedBy.length > 0 ? (
        <Alert color="yellow" variant="light" icon={<IconMessageCircle size={18} aria-hidden="true" />}>
          Changes requested by {request.changesRequestedBy.join(', ')}.
        </Alert>
      ) : null}
      {request.state === 'suspended' ? (
        <Alert
          color="orange"
          variant="light"
          role="alert"
          icon={<IconAlertTriangle size={18} aria-hidden="true" />}
          title="Suspended: what is live changed since this request was drafted"
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {request.suspendedReason ?? 'Its author must bring its changes up to date.'}
          </Text>
        </Alert>
      ) : null}
    </Stack>
  );
}
