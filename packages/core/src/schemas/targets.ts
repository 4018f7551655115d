import { z } from 'zod';
import { KEY_MAX_LENGTH } from '../keys';
import { MAX_LENGTH, text } from './common';

/**
 * Every target type. A `segment` target names the user attribute that carries the user's segment
 * keys; its conditions (`in`/`notIn`) choose segments of the environment.
 */
export const TARGET_TYPES = ['string', 'number', 'date', 'segment'] as const;
/** Target types a user may create: docs/product.md §5's string, number and date, and segment targets. */
export const CREATABLE_TARGET_TYPES = TARGET_TYPES;
/** A target type. */
export type TargetType = (typeof TARGET_TYPES)[number];

/** The 13 rule operators of docs/sdk-protocol.md §9.2; SDKs reject any other name. */
export const OPERATORS = [
  'equals',
  'contains',
  'startsWith',
  'endsWith',
  'matches',
  'in',
  'notIn',
  'greaterThan',
  'greaterThanOrEqual',
  'lessThan',
  'lessThanOrEqual',
  'before',
  'after',
] as const;
/** A rule operator. */
export type Operator = (typeof OPERATORS)[number];

/** Operators the dashboard offers per target type (docs/product.md §5). */
export const OPERATORS_BY_TARGET_TYPE: Readonly<Record<TargetType, readonly Operator[]>> = {
  segment: ['in', 'notIn'],
  string: ['contains', 'equals', 'startsWith', 'endsWith', 'matches', 'in', 'notIn'],
  date: ['before', 'after'],
  number: ['equals', 'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual'],
};

/** Operators whose condition holds several values; the others read only the first. */
export const MULTI_VALUE_OPERATORS: readonly Operator[] = ['in', 'notIn'];

/**
 * Target keys are user attribute names as SDKs send them (`tier`, `featureflow.user.id`,
 * `userId`), so case and dots are kept rather than normalised.
 */
export const TARGET_KEY_PATTERN = /^[A-Za-z0-9_.:-]+$/;

/** Key of a target (an attribute name). */
export const targetKeySchema = text({ max: KEY_MAX_LENGTH, required: 'Key is required' }).regex(
  TARGET_KEY_PATTERN,
  "Key may contain only letters, digits, '.', '_', ':' and '-'.",
);

/** A target: a user attribute that rules can test. */
export const targetSchema = z.object({
  key: z.string(),
  name: z.string(),
  type: z.enum(TARGET_TYPES),
});
/** Type of {@link targetSchema}. */
export type Target = z.infer<typeof targetSchema>;

/** Body of POST /api/v1/projects/{projectKey}/targets. */
export const targetInput = z.object({
  key: targetKeySchema,
  name: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
  type: z.enum(CREATABLE_TARGET_TYPES, { error: 'Type is required' }),
});
/** Type of {@link targetInput}. */
export type TargetInput = z.infer<typeof targetInput>;

/** The create-target form: as {@link targetInput}, type defaulting to `string` (docs/product.md §3). */
export const targetForm = targetInput.extend({
  type: z.enum(CREATABLE_TARGET_TYPES, { error: 'Type is required' }).default('string'),
});
/** Type of {@link targetForm}. */
export type TargetForm = z.infer<typeof targetForm>;

/** One attribute value of a target user: a primitive or a list of them. */
export const attributeValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string(), z.number(), z.boolean()])),
]);

/** A user seen by an SDK, with the attributes it reported (Users page). */
export const targetUserSchema = z.object({
  id: z.string(),
  attributes: z.record(z.string(), attributeValueSchema),
});
/** Type of {@link targetUserSchema}. */
export type TargetUser = z.infer<typeof targetUserSchema>;
