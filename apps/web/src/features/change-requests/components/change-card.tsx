import {
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconGitPullRequestConflict, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ChangeRequestChange } from '@vexil/core';
import { environmentSectionPath, featureDetailPath } from '../../../lib/paths';
import { kindLabel } from './change-request-format';

type Conflict = ChangeRequestChange['conflicts'][number];

/** A value of a conflicting part, as readable JSON (text, never markup). */
function Value({ label, value }: { label: string; value: unknown }) {
  const json = value === undefined ? '(none)' : JSON.stringify(value, null, 2);
  return (
    <Stack gap={4} miw={0}>
      <Text size="xs" fw={600} c="dimmed">
        {label}
      </Text>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {json}
      </Code>
    </Stack>
  );
}

/** A part both the request and someone since changed differently: as drafted on, live now, proposed. */
function ConflictParts({ conflicts }: { conflicts: Conflict[] }) {
  return (
    <Stack
      gap="sm"
      p="sm"
      role="group"
      aria-label="Conflicts with what is live"
      style={{
        border: '1px solid var(--mantine-color-orange-outline)',
        borderRadius: 'var(--mantine-radius-md)',
        background: 'var(--mantine-color-orange-light)',
      }}
    >
      <Group gap={6} wrap="nowrap">
        <IconGitPullRequestConflict size={16} aria-hidden="true" color="var(--mantine-color-orange-filled)" />
        <Text size="sm" fw={600}>
          Someone changed this since it was drafted. The author must decide these parts:
        </Text>
      </Group>
      {conflicts.map((conflict) => (
        <Stack key={conflict.part} gap={6} role="group" aria-label={conflict.label}>
          <Text size="sm" fw={600}>
            {conflict.label}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <Value label="When drafted" value={conflict.base} />
            <Value label="Live now" value={conflict.live} />
            <Value label="Proposed" value={conflict.proposed} />
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * Where a change's name leads: a feature's settings to its Settings tab, a segment to the
 * environment's Segments page, a control (or its restore) to the feature's page; nowhere for a kind
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
  return null;
}

export type ChangeCardProps = {
  change: ChangeRequestChange;
  projectKey: string;
  environmentKey: string;
  /** The author may still remove changes: Remove is offered. */
  removable: boolean;
  removing: boolean;
  onRemove: () => void;
};

/**
 * One change of a request: what it changes (its feature, linked, and its kind), what applying it would
 * do in sentences, a restore's version, the author's comment and, when what is live moved on in the
 * same parts, the conflicts side by side.
 */
export function ChangeCard({
  change,
  projectKey,
  environmentKey,
  removable,
  removing,
  onRemove,
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
          {removable ? (
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
          <Text size="xs" c="dimmed">
            Drafted on version {change.baseVersion}; version {change.liveVersion} is live now.
          </Text>
        ) : null}
        {change.conflicts.length > 0 ? <ConflictParts conflicts={change.conflicts} /> : null}
      </Stack>
    </Paper>
  );
}
