import { Anchor, Badge, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconGitMerge, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ChangeRequestChange } from '@vexil/core';
import { environmentSectionPath, featureDetailPath } from '../../../lib/paths';
import { ChangeConflicts, type BringUpToDate } from './change-conflicts';
import { kindLabel } from './change-request-format';

/**
 * Where a change's name leads: a feature's settings to its Settings tab, a segment to the
 * environment's Segments page, a control (or its restore) to the feature's page, a schedule to its
 * Targeting tab; nowhere for a kind
 * this dashboard does not know.
 */
export function changeResourcePath(
  change: Pick<ChangeRequestChange, 'kind' | 'featureKey'>,
  projectKey: string,
  environmentKey: string,
): string | null {
  const kind: string = change.kind;
  if (kind === 'segment') return environmentSectionPath(projectKey, environmentKey, 'segments');
  if (!change.featureKey) return null;
  if (kind === 'feature') return featureDetailPath(projectKey, environmentKey, change.featureKey, 'settings');
  if (kind === 'control' || kind === 'restore') {
    return featureDetailPath(projectKey, environmentKey, change.featureKey);
  }
  // A schedule: the feature's Targeting tab, where its schedules show once the request is applied.
  if (kind === 'schedule')
    return featureDetailPath(projectKey, environmentKey, change.featureKey, 'targeting');
  return null;
}

export type ChangeCardProps = {
  change: ChangeRequestChange;
  projectKey: string;
  environmentKey: string;
  /** The user may edit the request (its `actions.edit`): Remove and Bring up to date are offered. */
  editable: boolean;
  removing: boolean;
  onRemove: () => void;
  rebasing: boolean;
  /** Brings the change up to date with what is live, keeping the chosen side of each conflict. */
  onBringUpToDate: BringUpToDate['onBringUpToDate'];
};

/**
 * One change of a request: what it changes (its feature, linked, and its kind), what applying it would
 * do in sentences, a restore's version, the author's comment and, when what is live moved on in the
 * same parts, the conflicts side by side. When what is live moved on, whoever may edit the request
 * can bring the change up to date: choosing a side for each conflict, or taking the merge when none.
 */
export function ChangeCard({
  change,
  projectKey,
  environmentKey,
  editable,
  removing,
  onRemove,
  rebasing,
  onBringUpToDate,
}: ChangeCardProps) {
  const label = kindLabel(change.kind);
  const to = changeResourcePath(change, projectKey, environmentKey);
  const moved =
    change.baseVersion !== null && change.liveVersion !== null && change.baseVersion !== change.liveVersion;
  return (
    <Paper component="li" withBorder radius="md" p="md" aria-label={`${label}: ${change.resourceName}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Group gap="sm" miw={0}>
            <Title order={3} fz="md" style={{ overflowWrap: 'anywhere' }}>
              {to ? (
                <Anchor component={Link} to={to} inherit>
                  {change.resourceName}
                </Anchor>
              ) : (
                change.resourceName
              )}
            </Title>
            <Badge variant="outline" color="gray" miw="max-content">
              {label}
            </Badge>
          </Group>
          {editable ? (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={14} aria-hidden="true" />}
              aria-label={`Remove the change of ${change.resourceName}`}
              loading={removing}
              onClick={onRemove}
            >
              Remove
            </Button>
          ) : null}
        </Group>
        {change.restoredFrom !== null ? <Text size="sm">Restores version {change.restoredFrom}</Text> : null}
        {change.changes.length > 0 ? (
          <List size="sm" spacing={4} aria-label={`What applying changes in ${change.resourceName}`}>
            {change.changes.map((sentence, index) => (
              <List.Item key={index} style={{ overflowWrap: 'anywhere' }}>
                {sentence}
              </List.Item>
            ))}
          </List>
        ) : change.conflicts.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing to change: this is already what is live.
          </Text>
        ) : null}
        {change.comment ? (
          <Text size="sm" c="dimmed" fs="italic" style={{ overflowWrap: 'anywhere' }}>
            “{change.comment}”
          </Text>
        ) : null}
        {moved ? (
          <Group gap="xs" justify="space-between">
            <Text size="xs" c="dimmed">
              Drafted on version {change.baseVersion}; version {change.liveVersion} is live now.
            </Text>
            {editable && change.conflicts.length === 0 ? (
              // Nothing to choose: the change takes what merges and the live version as its base.
              <Button
                size="compact-xs"
                variant="light"
                leftSection={<IconGitMerge size={12} aria-hidden="true" />}
                loading={rebasing}
                onClick={() => void onBringUpToDate({})}
              >
                Bring up to date
              </Button>
            ) : null}
          </Group>
        ) : null}
        {change.conflicts.length > 0 ? (
          <ChangeConflicts
            conflicts={change.conflicts}
            bringUpToDate={editable ? { pending: rebasing, onBringUpToDate } : null}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}
