/**
 * Whether a feature's variants answer OpenFeature's typed calls with one type (docs/sdk-protocol.md
 * part B, "Evaluation"): OFREP answers a variant's JSON value, or without one its key as text (a
 * boolean for exactly `on` and `off`). A feature where some variants carry an object and others
 * nothing answers an object to some users and text to others, and `getStringValue` silently falls
 * back to its default for the first.
 */

/** The type OFREP answers for a variant, in the words the dashboard shows. */
export type VariantValueType = 'text' | 'number' | 'true/false' | 'object' | 'list';

/** What the Settings form and the variant list need of a variant. */
export type ValuedVariant = { key: string; value?: unknown };

/** The JSON type of a value; null for no value. */
function typeOfValue(value: unknown): VariantValueType | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'text';
    case 'number':
      return 'number';
    case 'boolean':
      return 'true/false';
    default:
      return 'object';
  }
}

/** The type of each variant's OFREP answer, in the variants' order. */
export function variantAnswerTypes(variants: readonly ValuedVariant[]): VariantValueType[] {
  const keys = variants.map((variant) => variant.key).sort();
  const onOff = keys.length === 2 && keys[0] === 'off' && keys[1] === 'on';
  return variants.map((variant) => typeOfValue(variant.value) ?? (onOff ? 'true/false' : 'text'));
}

/** The Settings form's warning when {@link mixedVariantValues} finds the answers' types mixed. */
export const MIXED_VARIANT_VALUES_MESSAGE =
  'Variants answer values of different types. OpenFeature SDKs ask for one type, and users served a variant of another get the default value instead. Give every variant a value of the same type.';

/**
 * Each variant with the type OFREP answers for it, when those types differ (a variant without a
 * value answers its key); an empty list when they are all one type.
 */
export function mixedVariantValues<V extends ValuedVariant>(
  variants: readonly V[],
): { variant: V; type: VariantValueType; hasValue: boolean }[] {
  const types = variantAnswerTypes(variants);
  if (new Set(types).size < 2) return [];
  return variants.map((variant, index) => ({
    variant,
    type: types[index]!,
    hasValue: typeOfValue(variant.value) !== null,
  }));
}

/** The Settings form's notice when {@link variantsWithoutValue} finds some variants without a value. */
export const MISSING_VARIANT_VALUES_MESSAGE =
  'Some variants have a value and others none. SDKs are answered the key of a variant without a value, so users served it get its key instead of a value. Give every variant a value, or none.';

/**
 * The variants without a value when others have one and the answers' types still agree (text values
 * beside keys answered as text): not a type mismatch, but the key probably stands in for a value
 * nobody meant. Empty when {@link mixedVariantValues} already warns, or when all or none have one.
 */
export function variantsWithoutValue<V extends ValuedVariant>(variants: readonly V[]): V[] {
  if (mixedVariantValues(variants).length > 0) return [];
  const missing = variants.filter((variant) => typeOfValue(variant.value) === null);
  return missing.length > 0 && missing.length < variants.length ? missing : [];
}
