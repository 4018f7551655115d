import type { ReactNode } from 'react';
import { Anchor, Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { ChangeRequestSummary } from '@vexil/core';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { changeRequestPath } from '../../../lib/paths';
import { approvalsText, RelativeTime, StateBadge } from './change-request-format';

export type ChangeRequestsTableProps = {
  /** null while the list first loads: skeletons stand in. */
  requests: ChangeRequestSummary[] | null;
  projectKey: string;
};

const SKELETONS = 3;
const LABEL = 'Change requests';

function TitleLink({ request, projectKey }: { request: ChangeRequestSummary; projectKey: string }) {
  return (
    <Anchor
      component={Link}
      to={changeRequestPath(projectKey, request.environmentKey, request.id)}
      size="sm"
      fw={500}
      style={{ overflowWrap: 'anywhere' }}
    >
      {request.title}
    </Anchor>
  );
}

function Approvals({ request }: { request: ChangeRequestSummary }) {
  return (
    <Text size="sm" aria-label={approvalsText(request.approvals, request.minApprovals)}>
      {request.approvals}/{request.minApprovals}
    </Text>
  );
}

function SkeletonRows() {
  return Array.from({ length: SKELETONS }, (_, index) => (
    <Table.Tr key={index} data-testid="change-request-skeleton">
      {[70, 50, 40, 50, 20, 40].map((width, cell) => (
        <Table.Td key={cell}>
          <Skeleton height={14} width={`${width}%`} />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}

/** A labelled line of a card. */
function CardLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="xs" c="dimmed" w={84} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <div style={{ minWidth: 0 }}>{children}</div>
    </Group>
  );
}

/** On a phone, a card per request, so that nothing scrolls sideways. */
function ChangeRequestCards({ requests, projectKey }: ChangeRequestsTableProps) {
  return (
    <Stack
      component="ul"
      gap="xs"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={LABEL}
      aria-busy={requests === null || undefined}
    >
      {requests === null
        ? Array.from({ length: SKELETONS }, (_, index) => (
            <Paper
              component="li"
              key={index}
              withBorder
              radius="md"
              p="sm"
              data-testid="change-request-skeleton"
            >
              <Skeleton height={14} width="60%" mb={8} />
              <Skeleton height={14} width="40%" />
            </Paper>
          ))
        : requests.map((request) => (
            <Paper component="li" key={request.id} withBorder radius="md" p="sm">
              <Stack gap={6}>
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <TitleLink request={request} projectKey={projectKey} />
                  <StateBadge state={request.state} />
                </Group>
                <CardLine label="Environment">
                  <Text size="sm">{request.environmentName}</Text>
                </CardLine>
                <CardLine label="Author">
                  <Text size="sm">{request.author.name}</Text>
                </CardLine>
                <CardLine label="Approvals">
                  <Approvals request={request} />
                </CardLine>
                <CardLine label="Updated">
                  <RelativeTime date={request.updatedDate} />
                </CardLine>
              </Stack>
            </Paper>
          ))}
    </Stack>
  );
}

/** A row per request: its title (to its page), environment, state, author, approvals and last activity. */
export function ChangeRequestsTable(props: ChangeRequestsTableProps) {
  const narrow = useNarrowScreen();
  if (narrow) return <ChangeRequestCards {...props} />;
  const { requests, projectKey } = props;
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table
        verticalSpacing="sm"
        highlightOnHover
        aria-label={LABEL}
        aria-busy={requests === null || undefined}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Title</Table.Th>
            <Table.Th>Environment</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Author</Table.Th>
            <Table.Th>Approvals</Table.Th>
            <Table.Th>Updated</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {requests === null ? (
            <SkeletonRows />
          ) : (
            requests.map((request) => (
              <Table.Tr key={request.id}>
                <Table.Td>
                  <TitleLink request={request} projectKey={projectKey} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{request.environmentName}</Text>
                </Table.Td>
                <Table.Td>
                  <StateBadge state={request.state} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{request.author.name}</Text>
                </Table.Td>
                <Table.Td>
                  <Approvals request={request} />
                </Table.Td>
                <Table.Td>
                  <RelativeTime date={request.updatedDate} />
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
