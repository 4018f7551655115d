import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  environmentSnapshotSchema,
  segmentSnapshotSchema,
  type EnvironmentSnapshot,
  type SegmentSnapshot,
} from '../schemas/versions';
import { applyJsonPatch, jsonPatch } from './json-patch';
import { environmentChanges, segmentChanges } from './resource-changes';

const segment: SegmentSnapshot = { key: 'vips', name: 'VIPs', description: 'Big spenders' };
const environment: EnvironmentSnapshot = {
  name: 'Staging',
  key: 'staging',
  url: '',
  color: '#aabbcc',
  local: false,
  production: false,
  tags: ['eu'],
  sdkCanCreateFeatures: true,
};

describe('segmentChanges', () => {
  it('words the first version, a rename and a new description', () => {
    expect(segmentChanges(null, segment)).toEqual(['Created']);
    expect(segmentChanges(segment, { ...segment })).toEqual([]);
    expect(segmentChanges(segment, { ...segment, name: 'Whales', description: '' })).toEqual([
      'Name: VIPs became Whales',
      'Description changed',
    ]);
  });
});

describe('environmentChanges', () => {
  it('words each setting that changed', () => {
    expect(environmentChanges(null, environment)).toEqual(['Created']);
    expect(environmentChanges(environment, { ...environment, tags: ['eu'] })).toEqual([]);
    expect(
      environmentChanges(environment, {
        ...environment,
        name: 'QA',
        url: 'https://qa.example.com',
        color: '#000000',
        production: true,
        local: true,
        tags: ['us'],
        sdkCanCreateFeatures: false,
      }),
    ).toEqual([
      'Name: Staging became QA',
      'URL: none became https://qa.example.com',
      'Color: #aabbcc became #000000',
      'Marked as production',
      'Marked as local',
      'Tags: added us; removed eu',
      'SDKs may no longer create features',
    ]);
    expect(
      environmentChanges(
        { ...environment, production: true, local: true, sdkCanCreateFeatures: false },
        environment,
      ),
    ).toEqual(['No longer production', 'No longer local', 'SDKs may create features']);
  });
});

/*
 * Properties over random snapshots from small pools (so equal pairs are common): the patch takes one
 * version to the other, and the sentences are empty exactly when nothing changed.
 */
const word = fc.constantFrom('', 'a', 'b', 'VIPs', 'Staging');
const segments = fc.record({ key: fc.constantFrom('vips', 'beta'), name: word, description: word });
const environments = fc.record({
  name: word,
  key: fc.constantFrom('dev', 'prod'),
  url: fc.constantFrom('', 'https://a.example.com'),
  color: fc.constantFrom('#000000', '#ffffff'),
  local: fc.boolean(),
  production: fc.boolean(),
  tags: fc.array(fc.constantFrom('eu', 'us', 'beta'), { maxLength: 3 }),
  sdkCanCreateFeatures: fc.boolean(),
});

describe('properties of segment and environment versions', () => {
  it('a segment: apply(patch(a, b), a) is b, and no sentences exactly when equal', () => {
    fc.assert(
      fc.property(segments, segments, (a, b) => {
        expect(segmentSnapshotSchema.parse(applyJsonPatch(a, jsonPatch(a, b)))).toEqual(b);
        const same = JSON.stringify(a) === JSON.stringify(b);
        expect(segmentChanges(a, b).length === 0).toBe(same);
      }),
    );
  });

  it('an environment: apply(patch(a, b), a) is b, and no sentences exactly when equal', () => {
    fc.assert(
      fc.property(environments, environments, (a, b) => {
        expect(environmentSnapshotSchema.parse(applyJsonPatch(a, jsonPatch(a, b)))).toEqual(b);
        const same = JSON.stringify(a) === JSON.stringify(b);
        expect(environmentChanges(a, b).length === 0).toBe(same);
      }),
    );
  });
});
