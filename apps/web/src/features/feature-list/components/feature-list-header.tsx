import { Button, ColorSwatch, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconKey, IconPlus, IconSearch } from '@tabler/icons-react';
import { PlanLimitNotice } from '../../../components/plan-limit-notice';

/** The id of the plan's "Only {n} feature(s) allowed." notice, which a disabled New Feature points at. */
export const FEATURE_LIMIT_ID = 'feature-plan-limit';

/**
 * "New Feature": enabled with create permission, otherwise disabled with the reason (`denial`, core's
 * wording of the refusal) in a tooltip. At the plan's feature limit (`limit`, its message) it is
 * disabled too, described by the notice with the upgrade link that the header shows.
 */
export function NewFeatureButton({
  denial,
  limit = null,
  onClick,
}: {
  denial: string | null;
  limit?: string | null;
  onClick: () => void;
}) {
  const button = (
    <Button
      leftSection={<IconPlus size={16} aria-hidden="true" />}
      disabled={denial !== null || limit !== null}
      aria-describedby={denial === null && limit !== null ? FEATURE_LIMIT_ID : undefined}
      onClick={onClick}
    >
      New Feature
    </Button>
  );
  if (denial === null) return button;
  return (
    <Tooltip label={denial} withArrow>
      <span aria-label={denial}>{button}</span>
    </Tooltip>
  );
}

export type FeatureListHeaderProps = {
  projectName: string;
  environment: { name: string; color: string };
  search: string;
  onSearch: (text: string) => void;
  /** Why the user may not create features, or null when they may. */
  createDenial: string | null;
  /** The plan's "Only {n} feature(s) allowed." once its feature limit is reached, else null. */
  featureLimit: string | null;
  onNewFeature: () => void;
  onApiKeys: () => void;
  apiKeysLoading: boolean;
};

/** Heading with the environment, Api Keys and New Feature, and the search box. */
export function FeatureListHeader({
  projectName,
  environment,
  search,
  onSearch,
  createDenial,
  featureLimit,
  onNewFeature,
  onApiKeys,
  apiKeysLoading,
}: FeatureListHeaderProps) {
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={1}>Features</Title>
          <Group gap={8} wrap="nowrap">
            <ColorSwatch
              component="span"
              color={environment.color}
              size={12}
              withShadow={false}
              aria-hidden="true"
            />
            {/* Names are the user's: one without spaces wraps rather than widening the page. */}
            <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {environment.name} environment of {projectName}
            </Text>
          </Group>
        </Stack>
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconKey size={16} aria-hidden="true" />}
            loading={apiKeysLoading}
            onClick={onApiKeys}
          >
            Api Keys
          </Button>
          <NewFeatureButton denial={createDenial} limit={featureLimit} onClick={onNewFeature} />
        </Group>
      </Group>
      {createDenial === null && featureLimit !== null ? (
        <PlanLimitNotice id={FEATURE_LIMIT_ID} message={featureLimit} />
      ) : null}
      <TextInput
        type="search"
        aria-label="Search features"
        placeholder="Search by name, key or description"
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        value={search}
        onChange={(event) => onSearch(event.currentTarget.value)}
        maw={420}
      />
    </Stack>
  );
}
