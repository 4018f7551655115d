import { Button, Card, Group, JsonInput, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconLock, IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, type FieldErrors } from 'react-hook-form';
import { MAX_VARIANTS, normaliseFeatureKey } from '@vexil/core';
import {
  emptyVariant,
  INVALID_JSON_MESSAGE,
  type SettingsControl,
  type SettingsValues,
} from './settings-values';

export type VariantsEditorProps = {
  control: SettingsControl;
  errors: FieldErrors<SettingsValues>;
  /** How many rows are the feature's saved variants: their keys are locked and they cannot be removed. */
  savedCount: number;
  disabled: boolean;
};

/**
 * docs/product.md §5: the variants of a feature, at least two. Saved variants keep their key and stay; new rows can
 * be edited freely and removed. Each may carry a JSON value that SDKs return for it.
 */
export function VariantsEditor({ control, errors, savedCount, disabled }: VariantsEditorProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'variants', keyName: 'fieldId' });
  const listError = errors.variants?.root?.message ?? errors.variants?.message;

  return (
    <Stack gap="sm" role="group" aria-labelledby="variants-heading">
      <div>
        <Text fw={600} size="sm" id="variants-heading">
          Variants
        </Text>
        <Text size="xs" c="dimmed">
          At least two. Saved variants keep their key and cannot be removed.
        </Text>
      </div>
      {fields.map((field, index) => {
        const saved = index < savedCount;
        const label = `Variant ${index + 1}`;
        return (
          <Card key={field.fieldId} withBorder radius="md" padding="sm" role="group" aria-label={label}>
            <Stack gap="xs">
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <Controller
                  control={control}
                  name={`variants.${index}.key`}
                  render={({ field: input, fieldState }) => (
                    <TextInput
                      label="Key"
                      required={!saved}
                      readOnly={saved}
                      variant={saved ? 'filled' : 'default'}
                      disabled={disabled}
                      rightSection={
                        saved ? (
                          <Tooltip label="A saved variant's key cannot change" withArrow>
                            <IconLock
                              size={14}
                              aria-label="Locked"
                              style={{ color: 'var(--mantine-color-dimmed)' }}
                            />
                          </Tooltip>
                        ) : null
                      }
                      error={fieldState.error?.message}
                      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                      {...input}
                      onBlur={() => {
                        if (!saved) input.onChange(normaliseFeatureKey(input.value));
                        input.onBlur();
                      }}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name={`variants.${index}.name`}
                  render={({ field: input, fieldState }) => (
                    <TextInput
                      label="Name"
                      required
                      disabled={disabled}
                      error={fieldState.error?.message}
                      {...input}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name={`variants.${index}.description`}
                  render={({ field: input, fieldState }) => (
                    <TextInput
                      label="Description"
                      disabled={disabled}
                      error={fieldState.error?.message}
                      {...input}
                    />
                  )}
                />
              </SimpleGrid>
              <Controller
                control={control}
                name={`variants.${index}.value`}
                render={({ field: input, fieldState }) => (
                  <JsonInput
                    label="Value (JSON)"
                    description="Optional: what SDKs return for this variant"
                    placeholder='e.g. {"color": "green"}'
                    validationError={INVALID_JSON_MESSAGE}
                    formatOnBlur
                    autosize
                    minRows={1}
                    maxRows={10}
                    disabled={disabled}
                    error={fieldState.error?.message}
                    {...input}
                  />
                )}
              />
              {!saved && !disabled ? (
                <Group justify="flex-end">
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    leftSection={<IconTrash size={14} aria-hidden="true" />}
                    onClick={() => remove(index)}
                    aria-label={`Remove ${label}`}
                  >
                    Remove
                  </Button>
                </Group>
              ) : null}
            </Stack>
          </Card>
        );
      })}
      {listError ? (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      ) : null}
      {!disabled ? (
        <Group>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden="true" />}
            disabled={fields.length >= MAX_VARIANTS}
            onClick={() => append(emptyVariant())}
          >
            Add variant
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
