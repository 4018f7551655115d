import type { ReactNode } from 'react';
import { ActionIcon, Badge, Code, Group, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { isApiError } from '../../../lib/api-client';
import { useFlag } from '../../../lib/flags';
import { formatDate } from '../../../lib/format';
import { notifyError } from '../../../lib/notify';
import type { Feature, FeatureControl } from '@vexil/core';
import { useBookmarkFeature } from '../../../entities/features/api/bookmark-feature';
import { CopyKeyButton } from './copy-key-button';
import { FeatureStatus } from './feature-status';
import { IssueLinks } from './issue-links';

/** docs/product.md §8 "Bookmark failure". */
export function bookmarkFailureMessage(error: unknown): string {
  const reason = isApiError(error) ? error.message : error instanceof Error ? error.message : '';
  return `We encountered an error, the bookmark was not saved. ${reason}`.trim();
}

function BookmarkToggle({ feature }: { feature: Feature }) {
  const toggle = useBookmarkFeature();
  const label = feature.bookmarked ? 'Remove bookmark' : 'Bookmark';
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="subtle"
        color={feature.bookmarked ? 'yellow' : 'gray'}
        size="lg"
        aria-label={label}
        aria-pressed={feature.bookmarked}
        onClick={() =>
          toggle.mutate(
            { featureId: feature.id, bookmarked: !feature.bookmarked },
            { onError: (error) => notifyError(bookmarkFailureMessage(error)) },
          )
        }
      >
        {feature.bookmarked ? (
          <IconStarFilled size={20} aria-hidden="true" />
        ) : (
          <IconStar size={20} aria-hidden="true" />
        )}
      </ActionIcon>
    </Tooltip>
  );
}

/** A labelled fact of the header ("Created", "Maintainer"...). */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} component="dt">
        {label}
      </Text>
      {/* Wraps rather than being cut: on a phone the columns are narrow and a date is worth reading whole. */}
      <Text size="sm" component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

export type FeatureHeaderProps = {
  feature: Feature;
  /** This environment's control; absent when the feature has none there. */
  control: FeatureControl | undefined;
  environmentName: string;
  /** This environment's on/off switch, when the feature has a control here. */
  toggle: ReactNode;
  /** What is scheduled for the feature here (a ramp running, the next change), when anything is. */
  schedule?: ReactNode;
};

/**
 * docs/product.md §2 "Header": name, the on/off switch and status in this environment, key with a copy button, description, issue links,
 * tags and maintainer (each behind its flag), the dates and the bookmark toggle; and, when anything is
 * scheduled for the feature here, a badge saying so that leads to the Targeting tab.
 */
export function FeatureHeader({ feature, control, environmentName, toggle, schedule }: FeatureHeaderProps) {
  const showTags = useFlag('tags');
  const showMaintainer = useFlag('maintainer');
  const showBookmark = useFlag('bookmarked');
  const lastImpression = control?.statistics.lastImpressionDate ?? null;
  // Settings change the feature; targeting changes this environment's control: either is an update.
  const lastUpdated =
    control && control.lastModifiedDate > feature.lastModifiedDate
      ? control.lastModifiedDate
      : feature.lastModifiedDate;

  return (
    <Stack gap="sm" component="header">
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={4} miw={0} style={{ flex: '1 1 260px' }}>
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Title order={1} fz={28} style={{ overflowWrap: 'break-word', minWidth: 0 }}>
              {feature.name}
            </Title>
            {showBookmark ? <BookmarkToggle feature={feature} /> : null}
            {feature.permanent ? (
              // Its whole word: beside a long name it must not be squeezed to "PERM…".
              <Badge variant="light" color="gray" miw="max-content" style={{ flexShrink: 0 }}>
                Permanent
              </Badge>
            ) : null}
          </Group>
          <Group gap={4} wrap="nowrap">
            <Code aria-label="Feature key">{feature.key}</Code>
            <CopyKeyButton value={feature.key} label="Copy key" />
          </Group>
          {schedule}
        </Stack>
        {control ? (
          <Group gap="sm" aria-label={`State in ${environmentName}`} role="group">
            {toggle}
            {/* Its whole word: a long name beside it must not squeeze it to "O…". */}
            <Badge
              variant="filled"
              color={control.enabled ? 'teal' : 'gray'}
              size="lg"
              miw="max-content"
              style={{ flexShrink: 0 }}
            >
              {control.enabled ? 'On' : 'Off'}
            </Badge>
            <FeatureStatus control={control} environmentName={environmentName} />
          </Group>
        ) : null}
      </Group>

      {feature.description ? (
        <Text style={{ whiteSpace: 'pre-wrap' }}>{feature.description}</Text>
      ) : (
        <Text c="dimmed" fs="italic">
          No description
        </Text>
      )}

      <Group gap="md" align="center">
        <IssueLinks feature={feature} />
        {showTags && feature.tags.length > 0 ? (
          <Group gap={6} aria-label="Tags" role="list">
            {feature.tags.map((tag) => (
              <Badge key={tag} role="listitem" variant="light" color="gray" tt="none">
                {tag}
              </Badge>
            ))}
          </Group>
        ) : null}
      </Group>

      <SimpleGrid component="dl" cols={{ base: 2, sm: showMaintainer ? 4 : 3 }} spacing="md" m={0} mt="xs">
        {showMaintainer ? <Fact label="Maintainer">{feature.maintainer?.name ?? 'None'}</Fact> : null}
        <Fact label="Created">{formatDate(feature.createdDate)}</Fact>
        <Fact label="Last updated">{formatDate(lastUpdated)}</Fact>
        <Fact label="Last impression">{lastImpression ? formatDate(lastImpression) : 'None'}</Fact>
      </SimpleGrid>
    </Stack>
  );
}
