import { Button, Group, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { Segment } from '@vexil/core';
import { DisabledReason } from '../../../components/disabled-reason';
import { TruncatedText } from '../../../components/truncated-text';

export type SegmentsTableProps = {
  /** null while the list first loads: skeleton rows stand in. */
  segments: Segment[] | null;
  /** Why Edit is disabled, or null when the user may edit. */
  editDenial: string | null;
  /** Why Delete is disabled, or null when the user may delete. */
  deleteDenial: string | null;
  /** The id of the segment being deleted, whose button spins. */
  deletingId: string | null;
  onEdit: (segment: Segment) => void;
  onDelete: (segment: Segment) => void;
  /** A new search is loading: the rows shown are the previous answer. */
  stale?: boolean;
};

const SKELETON_ROWS = 4;

function SkeletonRows() {
  return Array.from({ length: SKELETON_ROWS }, (_, index) => (
    <Table.Tr key={index} data-testid="segment-skeleton-row">
      <Table.Td>
        <Stack gap={6}>
          <Skeleton height={14} width="45%" />
          <Skeleton height={10} width="30%" />
        </Stack>
      </Table.Td>
      <Table.Td>
        <Skeleton height={14} width="75%" />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Skeleton height={30} width={64} />
          <Skeleton height={30} width={74} />
        </Group>
      </Table.Td>
    </Table.Tr>
  ));
}

/** A button that, when denied, is disabled and tells why in a tooltip (a disabled button gets no hover). */
function SegmentRow({
  segment,
  editDenial,
  deleteDenial,
  deleting,
  onEdit,
  onDelete,
}: {
  segment: Segment;
  editDenial: string | null;
  deleteDenial: string | null;
  deleting: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={0} align="flex-start">
          <TruncatedText text={segment.name} size="md" fw={500} />
          <TruncatedText text={segment.key} size="xs" c="dimmed" ff="monospace" />
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text
          size="sm"
          c={segment.description ? undefined : 'dimmed'}
          style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
        >
          {segment.description || 'No description'}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <DisabledReason denial={editDenial}>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconPencil size={14} aria-hidden="true" />}
              aria-label={`Edit ${segment.name}`}
              disabled={editDenial !== null}
              onClick={onEdit}
            >
              Edit
            </Button>
          </DisabledReason>
          <DisabledReason denial={deleteDenial}>
            <Button
              size="xs"
              variant="light"
              color="red"
              leftSection={<IconTrash size={14} aria-hidden="true" />}
              aria-label={`Delete ${segment.name}`}
              disabled={deleteDenial !== null}
              loading={deleting}
              onClick={onDelete}
            >
              Delete
            </Button>
          </DisabledReason>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** docs/product.md §2 "Segments page": name (with the key under it) and description, with Edit and Delete. */
export function SegmentsTable({
  segments,
  editDenial,
  deleteDenial,
  deletingId,
  onEdit,
  onDelete,
  stale = false,
}: SegmentsTableProps) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table
        // Fixed: a long name or key is cut (with a tooltip) rather than pushing the buttons away.
        layout="fixed"
        verticalSpacing="sm"
        highlightOnHover
        aria-label="Segments"
        aria-busy={segments === null || stale}
        style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 150ms' }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="35%">Name</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th w={220}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {segments === null ? (
            <SkeletonRows />
          ) : (
            segments.map((segment) => (
              <SegmentRow
                key={segment.id}
                segment={segment}
                editDenial={editDenial}
                deleteDenial={deleteDenial}
                deleting={deletingId === segment.id}
                onEdit={() => onEdit(segment)}
                onDelete={() => onDelete(segment)}
              />
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
