import type { Operation } from 'fast-json-patch';
// The default import, not named ones: the package's CommonJS entry (which Node picks, having no
// `exports` map) copies its functions with Object.assign, so Node sees no named exports in it.
import fastJsonPatch from 'fast-json-patch';
import type { JsonPatchOperation } from '../schemas/versions';

/** The value as JSON would carry it: members that are undefined dropped, as in a stored snapshot. */
function asJson(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * The RFC 6902 operations that turn `from` into `to` (the `patch` of a version diff): none when the
 * two are equal as JSON, whatever the order of their keys. Computed by fast-json-patch's `compare`;
 * when the two are not both objects or both arrays the whole document is replaced.
 */
export function jsonPatch(from: unknown, to: unknown): JsonPatchOperation[] {
  const a = asJson(from);
  const b = asJson(to);
  if (isContainer(a) && isContainer(b) && Array.isArray(a) === Array.isArray(b)) {
    return fastJsonPatch.compare(a, b) as JsonPatchOperation[];
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ op: 'replace', path: '', value: b }];
}

/**
 * `document` with `patch` applied (a restore or a preview brings a snapshot forward this way). The
 * argument is left as it was: the result is a new document that shares nothing with it or with the
 * patch. Throws fast-json-patch's JsonPatchError when an operation does not fit the document (a
 * path that does not exist, a failed `test`).
 */
export function applyJsonPatch<T>(document: T, patch: readonly JsonPatchOperation[]): T {
  const operations = asJson(patch) as Operation[];
  return fastJsonPatch.applyPatch(asJson(document), operations, true, false).newDocument as T;
}
