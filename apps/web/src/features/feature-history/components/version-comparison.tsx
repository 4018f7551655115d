import { CloseButton, Group, List, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { LoadError } from '../../../components/load-error';
import { formatDate } from '../../../lib/format';
import { useVersionComparison, type VersionedPart } from '../../../entities/features/api/get-versions';
import { VersionSnapshot, type SnapshotNames } from './version-snapshot';

/**
 * Two versions of one part side by side: what turns the older into the newer in words, then each
 * version as it was (rules and splits as sentences, settings field by field).
 */
export function VersionComparison({
  part,
  a,
  b,
  partName,
  names,
  onClose,
}: {
  part: VersionedPart;
  a: number;
  b: number;
  partName: string;
  names: SnapshotNames;
  onClose: () => void;
}) {
  const { from, to, diff } = useVersionComparison(part, a, b);
  const failed = from.error ?? to.error ?? diff.error;
  const title = `Version ${a} compared with version ${b} of ${partName}`;

  return (
    <Paper withBorder p="md" radius="md" role="region" aria-label={title}>
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} size="h5">
            {title}
          </Title>
          <CloseButton aria-label="Close the comparison" onClick={onClose} />
        </Group>
        {failed ? (
          <LoadError
            title="The comparison could not be loaded."
            error={failed}
            retrying={from.isFetching || to.isFetching || diff.isFetching}
            onRetry={() => {
              void from.refetch();
              void to.refetch();
              void diff.refetch();
            }}
          />
        ) : !from.data || !to.data || !diff.data ? (
          <Skeleton height={120} aria-label="Loading the comparison" />
        ) : (
          <>
            <div>
              <Text size="sm" fw={600} mb={4}>
                From version {a} to version {b}
              </Text>
              {diff.data.changes.length === 0 ? (
                <Text size="sm" c="dimmed">
                  The two versions are the same.
                </Text>
              ) : (
                <List size="sm" spacing={4} aria-label="Differences">
                  {diff.data.changes.map((change, index) => (
                    <List.Item key={index} style={{ overflowWrap: 'anywhere' }}>
                      {change}
                    </List.Item>
                  ))}
                </List>
              )}
            </div>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              {[from.data, to.data].map((version) => (
                <Paper
                  key={version.number}
                  withBorder
                  p="sm"
                  radius="sm"
                  aria-label={`Version ${version.number}`}
                >
                  <Text size="sm" fw={600}>
                    Version {version.number}
                  </Text>
                  <Text size="xs" c="dimmed" mb="xs">
                    {version.author?.name ?? 'Vexil'} · {formatDate(version.createdDate)}
                  </Text>
                  <VersionSnapshot snapshot={version.snapshot} names={names} />
                </Paper>
              ))}
            </SimpleGrid>
          </>
        )}
      </Stack>
    </Paper>
  );
}
