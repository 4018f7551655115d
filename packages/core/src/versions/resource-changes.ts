import type { EnvironmentSnapshot, SegmentSnapshot } from '../schemas/versions';
import { listChange } from './feature-settings-changes';
import { sameJson } from './same-json';

/** `Name: A became B`, or nothing when the text is the same. */
function textChange(label: string, before: string, after: string, none = 'none'): string[] {
  if (before === after) return [];
  return [`${label}: ${before || none} became ${after || none}`];
}

/**
 * What changed in a segment between two versions, as sentences a person reads in the history
 * (issue #31): `Name: VIPs became Big spenders`, `Description changed`. `before` null is the first
 * version: `Created`. Empty exactly when the two are equal as JSON.
 */
export function segmentChanges(before: SegmentSnapshot | null, after: SegmentSnapshot): string[] {
  if (before === null) return ['Created'];
  if (sameJson(before, after)) return [];
  const sentences = [
    ...textChange('Name', before.name, after.name),
    ...textChange('Key', before.key, after.key),
    ...(before.description !== after.description ? ['Description changed'] : []),
  ];
  // A member these sentences do not know yet (a later field) still shows as a change.
  return sentences.length > 0 ? sentences : ['Changed'];
}

/**
 * What changed in an environment's settings between two versions, as sentences: `Name: Staging
 * became QA`, `URL: none became https://qa.example.com`, `Color: #aaa became #bbb`, `Marked as
 * production`, `No longer local`, `Tags: added eu`, `SDKs may no longer create features`. `before`
 * null is the first version: `Created`. Empty exactly when the two are equal as JSON.
 */
export function environmentChanges(before: EnvironmentSnapshot | null, after: EnvironmentSnapshot): string[] {
  if (before === null) return ['Created'];
  if (sameJson(before, after)) return [];
  const flag = (changed: boolean, on: boolean, yes: string, no: string) => (changed ? [on ? yes : no] : []);
  const sentences = [
    ...textChange('Name', before.name, after.name),
    ...textChange('Key', before.key, after.key),
    ...textChange('URL', before.url, after.url),
    ...textChange('Color', before.color, after.color),
    ...flag(
      before.production !== after.production,
      after.production,
      'Marked as production',
      'No longer production',
    ),
    ...flag(before.local !== after.local, after.local, 'Marked as local', 'No longer local'),
    ...listChange('Tags', before.tags, after.tags),
    ...flag(
      before.sdkCanCreateFeatures !== after.sdkCanCreateFeatures,
      after.sdkCanCreateFeatures,
      'SDKs may create features',
      'SDKs may no longer create features',
    ),
  ];
  return sentences.length > 0 ? sentences : ['Changed'];
}
