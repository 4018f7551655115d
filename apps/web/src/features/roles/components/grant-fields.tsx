import {
  Button,
  Checkbox,
  Fieldset,
  Group,
  MultiSelect,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Controller, get, useWatch, type Control, type FieldErrors } from 'react-hook-form';
import {
  GRANT_ACTIONS,
  GRANT_ACTION_LABELS,
  GRANT_RESOURCES,
  GRANT_RESOURCE_LABELS,
  type GrantEnvironments,
  type RoleForm,
  type RoleInput,
} from '@vexil/core';

/** The form's values: a role being created or changed. */
export type RoleValues = RoleForm;
type GrantValues = NonNullable<RoleValues['grants']>[number];

/** What a new grant starts as: switching features on and off outside production, in every project. */
export const NEW_GRANT: GrantValues = {
  actions: ['update'],
  resources: ['featureControl'],
  projects: null,
  environments: { kind: 'nonProduction' },
};

const RESOURCE_OPTIONS = GRANT_RESOURCES.map((value) => ({ value, label: GRANT_RESOURCE_LABELS[value] }));

const ENVIRONMENT_OPTIONS: { value: GrantEnvironments['kind']; label: string }[] = [
  { value: 'all', label: 'All environments' },
  { value: 'nonProduction', label: 'Non-production only' },
  { value: 'tagged', label: 'With tags…' },
];

/** The hint under each choice: what it means for the member. */
const ENVIRONMENT_HINTS: Record<GrantEnvironments['kind'], string> = {
  all: 'Production included.',
  nonProduction: 'Never a production environment, nor one tagged production.',
  tagged: 'Environments carrying any of these tags, production or not.',
};

export type GrantFieldsProps = {
  control: Control<RoleValues, unknown, RoleInput>;
  errors: FieldErrors<RoleValues>;
  index: number;
  /** The organisation's projects, to choose from. */
  projects: readonly { id: string; name: string }[];
  onRemove: () => void;
};

/**
 * One grant of the Update Role modal (docs/product.md §6, custom roles): the actions, the resources,
 * the projects (all, or chosen ones) and the environments (all, non-production only, or those with
 * some tags) it reaches.
 */
export function GrantFields({ control, errors, index, projects, onRemove }: GrantFieldsProps) {
  const name = `Grant ${index + 1}`;
  const environments = useWatch({ control, name: `grants.${index}.environments` });
  const error = (field: string): string | undefined =>
    (get(errors, `grants.${index}.${field}`) as { message?: string } | undefined)?.message;
  return (
    <Fieldset
      legend={name}
      radius="md"
      p="md"
      pt="xs"
      styles={{ legend: { fontWeight: 600, fontSize: 'var(--mantine-font-size-sm)' } }}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
        <Controller
          control={control}
          name={`grants.${index}.actions`}
          render={({ field }) => (
            <Checkbox.Group
              label="Actions"
              value={field.value ?? []}
              onChange={(values) => field.onChange(values)}
              error={error('actions')}
              required
            >
              <Group gap="md" mt={6}>
                {GRANT_ACTIONS.map((action) => (
                  <Checkbox key={action} value={action} label={GRANT_ACTION_LABELS[action]} />
                ))}
              </Group>
            </Checkbox.Group>
          )}
        />
        <Controller
          control={control}
          name={`grants.${index}.resources`}
          render={({ field }) => (
            <MultiSelect
              label="Resources"
              placeholder={field.value?.length ? undefined : 'Choose resources'}
              data={RESOURCE_OPTIONS}
              value={field.value ?? []}
              onChange={(values) => field.onChange(values)}
              onBlur={field.onBlur}
              error={error('resources')}
              comboboxProps={{ withinPortal: true }}
              required
            />
          )}
        />
        <Controller
          control={control}
          name={`grants.${index}.projects`}
          render={({ field }) => {
            const chosen = field.value ?? null;
            return (
              <Stack gap={6}>
                <Text size="sm" fw={500} component="span" id={`grant-${index}-projects`}>
                  Projects
                </Text>
                <SegmentedControl
                  aria-labelledby={`grant-${index}-projects`}
                  size="xs"
                  data={[
                    { value: 'all', label: 'All projects' },
                    { value: 'chosen', label: 'Chosen projects' },
                  ]}
                  value={chosen === null ? 'all' : 'chosen'}
                  onChange={(value) => field.onChange(value === 'all' ? null : [])}
                  fullWidth
                />
                {chosen === null ? (
                  <Text size="xs" c="dimmed">
                    Every project, including those created later.
                  </Text>
                ) : (
                  <MultiSelect
                    aria-label={`Projects of grant ${index + 1}`}
                    placeholder={chosen.length ? undefined : 'Choose projects'}
                    data={projects.map((project) => ({ value: project.id, label: project.name }))}
                    value={chosen}
                    onChange={(values) => field.onChange(values)}
                    onBlur={field.onBlur}
                    error={error('projects')}
                    searchable
                    nothingFoundMessage="No such project"
                    comboboxProps={{ withinPortal: true }}
                  />
                )}
              </Stack>
            );
          }}
        />
        <Controller
          control={control}
          name={`grants.${index}.environments`}
          render={({ field }) => (
            <Stack gap={6}>
              <Select
                label="Environments"
                data={ENVIRONMENT_OPTIONS}
                value={field.value?.kind ?? 'all'}
                allowDeselect={false}
                onChange={(kind) => {
                  const next = (kind ?? 'all') as GrantEnvironments['kind'];
                  field.onChange(next === 'tagged' ? { kind: next, tags: [] } : { kind: next });
                }}
                description={ENVIRONMENT_HINTS[environments?.kind ?? 'all']}
                error={error('environments.kind')}
                comboboxProps={{ withinPortal: true }}
              />
              {environments?.kind === 'tagged' ? (
                <TagsInput
                  aria-label={`Tags of grant ${index + 1}`}
                  placeholder="Type a tag and press Enter"
                  value={[...environments.tags]}
                  onChange={(tags) => field.onChange({ kind: 'tagged', tags })}
                  error={error('environments.tags') ?? error('environments.tags.0')}
                  splitChars={[',']}
                  clearable
                />
              ) : null}
            </Stack>
          )}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="sm">
        <Button
          variant="subtle"
          color="red"
          size="xs"
          leftSection={<IconTrash size={14} aria-hidden="true" />}
          aria-label={`Remove grant ${index + 1}`}
          onClick={onRemove}
        >
          Remove
        </Button>
      </Group>
    </Fieldset>
  );
}
