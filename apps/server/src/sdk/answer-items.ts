import type { Evaluation, EvaluationUser, Evaluator } from '@vexil/core';
import type { ControlEntry } from './sdk-store';

/**
 * One flag's part of the JS client's and OFREP's answers, as UTF-8 bytes. For a given control the
 * part depends only on the evaluation's outcome (the variant, and for OFREP the reason), and a
 * control has a handful of outcomes: each one's bytes are made the first time it is given and kept on
 * the control's entry, which a change replaces. An answer for a new user then costs an evaluation and
 * a lookup per flag instead of an object and a `JSON.stringify`, and its body is the kept bytes copied
 * into one buffer (`joinItems`) rather than a string joined, then encoded (docs/architecture.md "Scale").
 */

type OfrepReason = 'TARGETING_MATCH' | 'SPLIT' | 'DISABLED' | 'DEFAULT' | 'UNKNOWN';

const OFREP_REASONS: Record<Evaluation['reason'], OfrepReason> = {
  TARGETING_MATCH: 'TARGETING_MATCH',
  SPLIT: 'SPLIT',
  DISABLED: 'DISABLED',
  DEFAULT: 'DEFAULT',
  NO_MATCH: 'DEFAULT',
  ERROR: 'UNKNOWN',
};

/** `"errorCode":…,"errorDetails":…}`, what follows the key in a TARGETING_KEY_MISSING item. */
const TARGETING_KEY_MISSING = JSON.stringify({
  errorCode: 'TARGETING_KEY_MISSING',
  errorDetails: 'This flag splits users by percentage: the context needs a targetingKey.',
}).slice(1);

/**
 * The text kept for an outcome of this entry, looked up by two strings the evaluation already holds
 * (the kind or the reason, then the variant), whose hashes V8 has computed once: a key joined from
 * them would be a new string to hash on every flag of every answer.
 */
function kept(entry: ControlEntry, kind: string, variant: string): Buffer | undefined {
  return entry.items.get(kind)?.get(variant);
}

function keep(entry: ControlEntry, kind: string, variant: string, text: string): Buffer {
  let items = entry.items.get(kind);
  if (items === undefined) {
    items = new Map();
    entry.items.set(kind, items);
  }
  const bytes = Buffer.from(text);
  items.set(variant, bytes);
  return bytes;
}

const COMMA = 0x2c;

/**
 * `open`, the items separated by commas, then `close`, in one buffer of exactly their length: each
 * item is copied once, where joining strings would copy the text twice (joined, then flattened into
 * the template) and encode it.
 */
export function joinItems(open: string, items: readonly Buffer[], close: string): Buffer {
  let length = Buffer.byteLength(open) + Buffer.byteLength(close) + Math.max(0, items.length - 1);
  for (const item of items) length += item.length;
  const body = Buffer.allocUnsafe(length);
  let at = body.write(open, 0);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) body[at++] = COMMA;
    const item = items[i]!;
    body.set(item, at);
    at += item.length;
  }
  body.write(close, at);
  return body;
}

function jsText(evaluator: Evaluator, entry: ControlEntry, user: EvaluationUser, at: Date): string {
  const rules = evaluator.clientRules(entry.control, user, at, (variant) => entry.values.get(variant));
  return `${entry.keyJson}:${JSON.stringify(rules)}`;
}

/**
 * `"key":{"rules":[…]}` of the JS client's answer (docs/sdk-protocol.md §6.1): what `clientRules`
 * gives, serialised. A control with date or hour conditions, which the device tests, has as many
 * outcomes as users' combinations of rules, so its part is made afresh each time; so is a control
 * the engine could not read (ERROR), whose off variant goes without its value.
 */
export function jsItem(evaluator: Evaluator, entry: ControlEntry, user: EvaluationUser, at: Date): Buffer {
  if (!entry.readsClock.device) {
    const { variant, reason } = evaluator.evaluate(entry.control, user, at);
    if (reason !== 'ERROR')
      return kept(entry, 'js', variant) ?? keep(entry, 'js', variant, jsText(evaluator, entry, user, at));
  }
  return Buffer.from(jsText(evaluator, entry, user, at));
}

/**
 * A variant's typed value: its JSON value when it has one; for a plain on/off feature a boolean;
 * otherwise the variant key as a string.
 */
export function ofrepValueOf(entry: ControlEntry, variant: string): unknown {
  if (entry.values.has(variant)) return entry.values.get(variant);
  return entry.onOff ? variant === 'on' : variant;
}

/** One request's context, read once for every flag it evaluates. */
export type OfrepEvaluating = { user: EvaluationUser; hasTargetingKey: boolean; now: Date };

const MISSING_KEY = 'missing key';

/**
 * One flag's OFREP item (docs/sdk-protocol.md part B): `{key, value, reason, variant, metadata}`, or
 * `{key, errorCode, errorDetails}` when a split has no targeting key to split by.
 */
export function ofrepItem(evaluator: Evaluator, entry: ControlEntry, at: OfrepEvaluating): Buffer {
  const { variant, reason } = evaluator.evaluate(entry.control, at.user, at.now);
  if (reason === 'SPLIT' && !at.hasTargetingKey)
    return (
      kept(entry, MISSING_KEY, '') ??
      keep(entry, MISSING_KEY, '', `{"key":${entry.keyJson},${TARGETING_KEY_MISSING}`)
    );
  const text = kept(entry, reason, variant);
  if (text !== undefined) return text;
  const value = JSON.stringify(ofrepValueOf(entry, variant));
  return keep(
    entry,
    reason,
    variant,
    `{"key":${entry.keyJson},"value":${value},"reason":"${OFREP_REASONS[reason]}","variant":${JSON.stringify(variant)},"metadata":{}}`,
  );
}

/** Whether an item `ofrepItem` gave is the error item (the single-flag endpoint answers it with 400). */
export function isOfrepError(entry: ControlEntry, item: Buffer): boolean {
  return item === kept(entry, MISSING_KEY, '');
}
