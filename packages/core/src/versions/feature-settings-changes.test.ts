import { describe, expect, it } from 'vitest';
import type { FeatureSettingsSnapshot } from '../schemas/versions';
import { featureSettingsChanges } from './feature-settings-changes';

/** A deep copy, as JSON carries it. */
const copyOf = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const ANN = { id: '3f0b7c1e-2a4d-4e8f-9b6a-1c2d3e4f5a6b', name: 'Ann' };

const settings: FeatureSettingsSnapshot = {
  name: 'Checkout',
  key: 'checkout',
  description: 'Pays in one step',
  permanent: false,
  variants: [
    { key: 'on', name: 'On', description: '' },
    { key: 'off', name: 'Off', description: '' },
    { key: 'blue', name: 'Blue', description: 'The blue button', value: '#00f' },
  ],
  tags: ['web', 'beta'],
  goals: ['checkout-completed'],
  jiraIssueKeys: ['VEX-1'],
  maintainer: ANN,
};

const changes = (edit: Partial<FeatureSettingsSnapshot>) =>
  featureSettingsChanges(settings, { ...settings, ...edit });
const variantsWith = (blue: Partial<FeatureSettingsSnapshot['variants'][number]>) =>
  settings.variants.map((variant) => (variant.key === 'blue' ? { ...variant, ...blue } : variant));

describe('featureSettingsChanges', () => {
  it('says Created for the first version', () => {
    expect(featureSettingsChanges(null, settings)).toEqual(['Created']);
  });

  it('says what the name became, and that the description changed', () => {
    expect(changes({ name: 'One-step checkout' })).toEqual(['Name: Checkout became One-step checkout']);
    expect(changes({ description: 'Pays in two steps' })).toEqual(['Description changed']);
  });

  it('says when the feature was made permanent or no longer is', () => {
    expect(changes({ permanent: true })).toEqual(['Made permanent']);
    expect(featureSettingsChanges({ ...settings, permanent: true }, settings)).toEqual([
      'No longer permanent',
    ]);
  });

  it('names variants added and removed with their keys', () => {
    const green = { key: 'green', name: 'Green', description: '' };
    expect(changes({ variants: [...settings.variants, green] })).toEqual(['Variant added: Green (green)']);
    expect(changes({ variants: settings.variants.slice(0, 2) })).toEqual(['Variant removed: Blue (blue)']);
  });

  it('says how a variant was renamed, and when its description or value changed', () => {
    expect(changes({ variants: variantsWith({ name: 'Navy' }) })).toEqual([
      'Variant blue renamed: Blue became Navy',
    ]);
    expect(changes({ variants: variantsWith({ description: 'Bluer' }) })).toEqual([
      'Variant blue: description changed',
    ]);
    expect(changes({ variants: variantsWith({ value: '#00a' }) })).toEqual([
      'Variant blue: value "#00f" became "#00a"',
    ]);
    expect(changes({ variants: variantsWith({ value: undefined }) })).toEqual([
      'Variant blue: value "#00f" became none',
    ]);
    const long = { colour: 'blue', shades: ['navy', 'sky', 'royal', 'powder', 'steel'] };
    expect(changes({ variants: variantsWith({ value: long }) })).toEqual(['Variant blue: value changed']);
  });

  it('says when only the order of the variants changed', () => {
    expect(changes({ variants: [...settings.variants].reverse() })).toEqual([
      'Variants reordered: Blue, Off, On',
    ]);
  });

  it('lists tags, goals and Jira issues added and removed', () => {
    expect(changes({ tags: ['web', 'mobile'] })).toEqual(['Tags: added mobile; removed beta']);
    expect(changes({ goals: [] })).toEqual(['Goals: removed checkout-completed']);
    expect(changes({ jiraIssueKeys: ['VEX-1', 'VEX-2'] })).toEqual(['Jira issues: added VEX-2']);
    expect(changes({ tags: ['beta', 'web'] })).toEqual(['Tags: reordered']);
  });

  it('says who the maintainer became, or nobody', () => {
    expect(changes({ maintainer: null })).toEqual(['Maintainer: Ann became nobody']);
    expect(featureSettingsChanges({ ...settings, maintainer: null }, settings)).toEqual([
      'Maintainer: nobody became Ann',
    ]);
    expect(changes({ maintainer: { id: '4f0b7c1e-2a4d-4e8f-9b6a-1c2d3e4f5a6b', name: 'Ann' } })).toEqual([
      'Maintainer: Ann became another member named Ann',
    ]);
  });

  it('says every change of one save, in the order of the form', () => {
    expect(changes({ name: 'Pay', permanent: true, tags: [], maintainer: null })).toEqual([
      'Name: Checkout became Pay',
      'Made permanent',
      'Tags: removed web, beta',
      'Maintainer: Ann became nobody',
    ]);
  });

  it('says nothing when the settings are equal as JSON, whatever their key order', () => {
    const reordered = Object.fromEntries(
      Object.entries(copyOf(settings)).reverse(),
    ) as FeatureSettingsSnapshot;
    expect(featureSettingsChanges(settings, reordered)).toEqual([]);
  });
});
