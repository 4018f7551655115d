import type { Control } from 'react-hook-form';
import { z } from 'zod';
import { featureForm, type Feature, type FeatureInput } from '@vexil/core';

type JsonValue = z.infer<ReturnType<typeof z.json>>;

/** A variant's optional value is JSON typed into a text area (docs/product.md §5). */
export const INVALID_JSON_MESSAGE = 'Must be valid JSON.';

/** One row of the variants editor as typed: the value is JSON text, '' for none. */
const variantRow = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  value: z.string(),
});

/**
 * Parses each row's JSON value, then applies core's variant rules (featureForm's `variants`: names and
 * keys required, at least two, unique keys), reporting every problem at once.
 */
const variants = z.array(variantRow).transform((rows, ctx) => {
  let valuesParse = true;
  const typed = rows.map(({ value, ...variant }, index) => {
    if (value.trim() === '') return variant;
    try {
      return { ...variant, value: JSON.parse(value) as JsonValue };
    } catch {
      valuesParse = false;
      ctx.addIssue({ code: 'custom', path: [index, 'value'], message: INVALID_JSON_MESSAGE, input: value });
      return variant;
    }
  });
  const parsed = featureForm.shape.variants.safeParse(typed);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path, input: typed });
    }
    return z.NEVER;
  }
  return valuesParse ? parsed.data : z.NEVER;
});

/** The Feature Settings form: core's featureForm, with variant values typed as JSON text. */
export const settingsSchema = featureForm.extend({ variants });

/** What the form holds. */
export type SettingsValues = z.input<typeof settingsSchema>;
export type VariantRow = SettingsValues['variants'][number];
/** The form's control, which submits a {@link FeatureInput}. */
export type SettingsControl = Control<SettingsValues, unknown, FeatureInput>;

/**
 * The form's values for a loaded feature; Cancel resets to these. They carry the feature's version, which
 * the save sends back so that the server refuses it when someone saved the settings since.
 */
export function valuesFromFeature(feature: Feature): SettingsValues {
  return {
    id: feature.id,
    lastModifiedDate: feature.lastModifiedDate,
    name: feature.name,
    key: feature.key,
    description: feature.description,
    permanent: feature.permanent,
    variants: feature.variants.map((variant) => ({
      key: variant.key,
      name: variant.name,
      description: variant.description,
      value:
        variant.value === undefined || variant.value === null ? '' : JSON.stringify(variant.value, null, 2),
    })),
    tags: feature.tags,
    jiraIssueKeys: feature.jiraIssueKeys,
    goals: feature.goals,
    maintainerId: feature.maintainer?.id ?? null,
  };
}

/** A new, empty variant row. */
export function emptyVariant(): VariantRow {
  return { key: '', name: '', description: '', value: '' };
}

/** The first message in a field's errors, however deep (e.g. one of several issue keys). */
export function firstErrorMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as Record<string, unknown>;
  if (typeof record.message === 'string' && record.message) return record.message;
  for (const [name, value] of Object.entries(record)) {
    if (name === 'ref') continue;
    const message = firstErrorMessage(value);
    if (message) return message;
  }
  return undefined;
}
