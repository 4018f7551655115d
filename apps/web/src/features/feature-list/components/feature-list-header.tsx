import { Button, ColorSwatch, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconKey, IconPlus, IconSearch } from '@tabler/icons-react';

export const CREATE_DENIED_MESSAGE = 'You do not have permission to create features.';

/** "New Feature": enabled with create permission, otherwise disabled with the reason in a tooltip. */
export function NewFeatureButton({ canCreate, onClick }: { canCreate: boolean; onClick: () => void }) {
  const button = (
    <Button leftSection={<IconPlus size={16} aria-hidden="true" />} disabled={!canCreate} onClick={onClick}>
      New Feature
    </Button>
  );
  if (canCreate) return button;
  return (
    <Tooltip label={CREATE_DENIED_MESSAGE} withArrow>
      <span aria-label={CREATE_DENIED_MESSAGE}>{button}</span>
    </Tooltip>
  );
}

export type FeatureListHeaderProps = {
  projectName: string;
  environment: { name: string; color: string };
  search: string;
  onSearch: (text: string) => void;
  canCreate: boolean;
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
  canCreate,
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
            <Text c="dimmed">
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
          <NewFeatureButton canCreate={canCreate} onClick={onNewFeature} />
        </Group>
      </Group>
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
