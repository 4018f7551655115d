import {
  Alert,
  Button,
  Card,
  Group,
  JsonInput,
  List,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconLock, IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useWatch, type FieldErrors } from 'react-hook-form';
import {
  MAX_VARIANTS,
  MISSING_VARIANT_VALUES_MESSAGE,
  MIXED_VARIANT_VALUES_MESSAGE,
  mixedVariantValues,
  variantsWithoutValue,
  normaliseFeatureKey,
} from '@vexil/core';
import {
  emptyVariant,
  INVALID_JSON_MESSAGE,
  type SettingsControl,
  type SettingsValues,
  type VariantRow,
} from './settings-values';

export type VariantsEditorProps = {
  control: SettingsControl;
  errors: FieldErrors<SettingsValues>;
  /** How many rows are the feature's saved variants: their keys are locked and they cannot be removed. */
  savedCount: number;
  disabled: boolean;
};

/**
 * The variants as typed, for core's mixedVariantValues and variantsWithoutValue; a row whose value is
 * not JSON yet is left out, its own field says so.
 */
function typedRows(rows: readonly VariantRow[]) {
  return rows.flatMap((row) => {
    const name = row.name.trim() || row.key.trim() || 'A new variant';
    if (row.value.trim() === '') return [{ key: row.key, name }];
    try {
      return [{ key: row.key, name, value: JSON.parse(row.value) as unknown }];
    } catch {
      return [];
    }
  });
}

/** A warning, not a refusal: features saved with mixed values load and save as before. */
function MixedValuesWarning({ control }: { control: SettingsControl }) {
  const rows = typedRows(useWatch({ control, name: 'variants' }) ?? []);
  const mixed = mixedVariantValues(rows);
  const missing = variantsWithoutValue(rows);
  if (missing.length > 0) {
    return (
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle size={18} aria-hidden="true" />}
        title="Variants without a value"
        role="status"
      >
        <Text size="sm">{MISSING_VARIANT_VALUES_MESSAGE}</Text>
        <Text size="sm" mt={4}>
          Without a value: {missing.map((variant) => variant.name).join(', ')}
        </Text>
      </Alert>
    );
  }
  if (mixed.length === 0) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      title="Variant values of different types"
      role="status"
    >
      <Text size="sm">{MIXED_VARIANT_VALUES_MESSAGE}</Text>
      <List size="sm" mt={4}>
        {mixed.map(({ variant, type, hasValue }, index) => (
          <List.Item key={index}>
            {variant.name}:{' '}
            {hasValue ? type : `${type}, having no value (${type === 'text' ? 'its key' : 'on or off'})`}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/**
 * docs/product.md §5: the variants of a feature, at least two. Saved variants keep their key and stay; new rows can
 * be edited freely and removed. Each may carry a JSON value that SDKs return for it; values whose types
 * differ are warned about below the list.
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
                    // Not formatted on blur: the taller field would move Update feature under the
                    // pointer between the press and the release of a click on it. A saved value comes
                    // back formatted (valuesFromFeature).
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
      <MixedValuesWarning control={control} />
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
