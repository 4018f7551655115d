import { useState } from 'react';
import { Badge, Button, Checkbox, Group, List, Paper, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import {
  denialOf,
  isProductionEnvironment,
  type EnvironmentConstraint,
  type Feature,
  type Principal,
  type VersionSource,
} from '@vexil/core';
import { LoadError } from '../../../components/load-error';
import { formatDate } from '../../../lib/format';
import {
  useFeatureHistory,
  type HistoryEntry,
  type VersionedPart,
} from '../../../entities/features/api/get-versions';
import { VersionComparison } from './version-comparison';
import { RestoreVersionModal, type RestoreTarget } from './restore-version-modal';

/** Where each change came from, as a person says it. */
export const SOURCE_LABELS: Readonly<Record<VersionSource, string>> = {
  ui: 'Dashboard',
  api: 'API',
  sdk: 'SDK',
  schedule: 'Schedule',
  guard: 'Guarded rollout',
  import: 'Import',
  cli: 'CLI',
  mcp: 'Agent',
  restore: 'Restore',
  'change-request': 'Change request',
  system: 'System',
};

/** The environment facts the History tab needs: its name, and what its production rights depend on. */
export type HistoryEnvironment = EnvironmentConstraint & { key: string; name: string };

export type FeatureHistoryProps = {
  feature: Pick<Feature, 'key' | 'name' | 'variants'>;
  projectKey: string;
  projectId: string;
  environment: HistoryEnvironment;
  user: Principal;
};

/** A version picked for comparison: which part, and its number. */
type Picked = { environmentKey: string | null; number: number };

const partKey = (part: Pick<VersionedPart, 'environmentKey'>) => part.environmentKey ?? '';

function authorText(entry: HistoryEntry): string {
  if (entry.author) return entry.author.name;
  if (entry.source === 'sdk') return 'An SDK';
  return 'Vexil';
}

/**
 * docs/product.md "History": the feature page's History tab. One timeline, newest first, of the
 * feature's settings and of its targeting in the current environment: who, when, from where, why, and
 * what changed in words. Two versions of the same part compare side by side; any older version can be
 * restored, with what it changes previewed, the production warning in production, and a comment.
 */
export function FeatureHistory({ feature, projectKey, projectId, environment, user }: FeatureHistoryProps) {
  const history = useFeatureHistory(projectKey, feature.key, environment.key);
  const [picked, setPicked] = useState<Picked[]>([]);
  const [restoring, setRestoring] = useState<RestoreTarget | null>(null);

  const constraint = { production: environment.production, tags: environment.tags ?? [], projectId };
  const denials = {
    control: denialOf(user, 'update', { type: 'featureControl', environment: constraint })?.message ?? null,
    settings: denialOf(user, 'update', { type: 'feature', projectId })?.message ?? null,
  };
  const partName = (part: Pick<VersionedPart, 'environmentKey'>) =>
    part.environmentKey === null ? 'the settings' : `the targeting in ${environment.name}`;
  const variantNames = Object.fromEntries(feature.variants.map((variant) => [variant.key, variant.name]));

  const isPicked = (entry: HistoryEntry) =>
    picked.some((p) => p.environmentKey === entry.part.environmentKey && p.number === entry.number);
  const pick = (entry: HistoryEntry, on: boolean) => {
    const mine = { environmentKey: entry.part.environmentKey, number: entry.number };
    setPicked((current) => {
      if (!on)
        return current.filter((p) => !(p.environmentKey === mine.environmentKey && p.number === mine.number));
      // A comparison is between two versions of one part: picking another part starts afresh.
      const same = current.filter((p) => p.environmentKey === mine.environmentKey);
      return [...same.slice(-1), mine];
    });
  };
  const comparing =
    picked.length === 2
      ? {
          part: { projectKey, featureKey: feature.key, environmentKey: picked[0]!.environmentKey },
          a: Math.min(picked[0]!.number, picked[1]!.number),
          b: Math.max(picked[0]!.number, picked[1]!.number),
        }
      : null;

  if (history.isPending) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the history">
        <Skeleton height={72} />
        <Skeleton height={72} />
        <Skeleton height={72} />
      </Stack>
    );
  }
  if (history.error && history.entries.length === 0) {
    return (
      <LoadError
        title="The history could not be loaded."
        error={history.error}
        retrying={false}
        onRetry={() => void history.refetch()}
      />
    );
  }

  const newestOf = (entry: HistoryEntry) =>
    entry.part.environmentKey === null ? history.newest.settings : history.newest.control;

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Every change to this feature’s settings and to its targeting in {environment.name}, newest first. Tick
        two versions of the same part to compare them.
      </Text>
      {comparing ? (
        <VersionComparison
          part={comparing.part}
          a={comparing.a}
          b={comparing.b}
          partName={partName(comparing.part)}
          names={{ variants: variantNames }}
          onClose={() => setPicked([])}
        />
      ) : null}
      {history.entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing has been recorded for this feature yet.
        </Text>
      ) : (
        <Stack
          gap="sm"
          component="ol"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-label="Versions"
        >
          {history.entries.map((entry) => {
            const newest = newestOf(entry) === entry.number;
            const denial = entry.part.environmentKey === null ? denials.settings : denials.control;
            const label = `version ${entry.number} of ${partName(entry.part)}`;
            return (
              <Paper
                key={`${partKey(entry.part)}:${entry.number}`}
                component="li"
                withBorder
                p="sm"
                radius="md"
                aria-label={`Version ${entry.number} of ${partName(entry.part)}`}
              >
                <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
                  <Stack gap={4} style={{ flex: '1 1 16rem', minWidth: 0 }}>
                    <Group gap="xs" wrap="wrap">
                      <Text fw={600} size="sm">
                        Version {entry.number}
                      </Text>
                      <Badge variant="light" color={entry.part.environmentKey === null ? 'grape' : 'blue'}>
                        {entry.part.environmentKey === null ? 'Settings' : `Targeting · ${environment.name}`}
                      </Badge>
                      <Badge variant="outline" color="gray">
                        {SOURCE_LABELS[entry.source]}
                      </Badge>
                      {newest ? (
                        <Badge variant="filled" color="teal">
                          Current
                        </Badge>
                      ) : null}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {authorText(entry)} ·{' '}
                      <time dateTime={entry.createdDate}>{formatDate(entry.createdDate)}</time>
                      {entry.restoredFrom !== null ? ` · brought back version ${entry.restoredFrom}` : ''}
                    </Text>
                    {entry.comment ? (
                      <Text size="sm" fs="italic" style={{ overflowWrap: 'anywhere' }}>
                        “{entry.comment}”
                      </Text>
                    ) : null}
                    {entry.changes.length > 0 ? (
                      <List size="sm" spacing={2} aria-label="Changes">
                        {entry.changes.map((change, index) => (
                          <List.Item key={index} style={{ overflowWrap: 'anywhere' }}>
                            {change}
                          </List.Item>
                        ))}
                      </List>
                    ) : null}
                  </Stack>
                  <Group gap="xs" wrap="nowrap">
                    <Checkbox
                      label="Compare"
                      aria-label={`Compare ${label}`}
                      checked={isPicked(entry)}
                      onChange={(event) => pick(entry, event.currentTarget.checked)}
                    />
                    {newest ? null : (
                      <Tooltip label={denial} disabled={!denial} withArrow multiline maw={280}>
                        <span>
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={`Restore ${label}`}
                            disabled={denial !== null}
                            onClick={() =>
                              setRestoring({
                                part: entry.part,
                                number: entry.number,
                                currentVersion: newestOf(entry)!,
                                partName: partName(entry.part),
                              })
                            }
                          >
                            Restore
                          </Button>
                        </span>
                      </Tooltip>
                    )}
                  </Group>
                </Group>
              </Paper>
            );
          })}
        </Stack>
      )}
      {history.hasMore ? (
        <Group justify="center">
          <Button variant="default" loading={history.isLoadingMore} onClick={history.loadMore}>
            Load more
          </Button>
        </Group>
      ) : null}
      {restoring ? (
        <RestoreVersionModal
          target={restoring}
          featureName={feature.name}
          production={
            restoring.part.environmentKey !== null && isProductionEnvironment(environment)
              ? environment.name
              : null
          }
          onClose={() => setRestoring(null)}
          onStale={() => void history.refetch()}
        />
      ) : null}
    </Stack>
  );
}
