import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './common';
import {
  bookmarkParams,
  createFeatureForm,
  defaultVariants,
  featureFiltersForm,
  homeFeaturesQuery,
  featureInput,
  featureListQuery,
  featureSchema,
  linkFeatureForm,
  variantForm,
} from './features';
import { FEATURE, ID } from './test-samples';

const errors = (result: { error?: { issues: Parameters<typeof toFieldErrors>[0] } }) =>
  result.error ? toFieldErrors(result.error.issues) : [];

describe('featureSchema', () => {
  it('accepts a feature with controls per environment', () => {
    expect(featureSchema.parse(FEATURE)).toEqual(FEATURE);
  });
});

describe('featureInput', () => {
  it('requires a name and a key', () => {
    expect(errors(featureInput.safeParse({ name: '', key: '' }))).toEqual([
      { field: 'name', message: 'Name is required' },
      { field: 'key', message: 'Key is required' },
    ]);
  });

  it('normalises the key and fills the defaults: variants On and Off', () => {
    expect(featureInput.parse({ name: 'New Checkout', key: 'New Checkout!' })).toEqual({
      name: 'New Checkout',
      key: 'new-checkout',
      description: '',
      permanent: false,
      variants: defaultVariants(),
      tags: [],
      jiraIssueKeys: [],
      goals: [],
      maintainerId: null,
      comment: '',
    });
  });

  it('takes a comment for the version of the settings a save creates, at most 500 characters', () => {
    const base = { name: 'a', key: 'a' };
    expect(featureInput.parse({ ...base, comment: '  Launch  ' }).comment).toBe('Launch');
    expect(errors(featureInput.safeParse({ ...base, comment: 'x'.repeat(501) }))).toEqual([
      { field: 'comment', message: 'Must be at most 500 characters.' },
    ]);
  });

  it('needs at least two variants with distinct keys', () => {
    const one = [{ key: 'on', name: 'On' }];
    expect(errors(featureInput.safeParse({ name: 'a', key: 'a', variants: one }))).toEqual([
      { field: 'variants', message: 'At least two variants are required.' },
    ]);
    const twins = [
      { key: 'on', name: 'On' },
      { key: 'ON', name: 'Also on' },
    ];
    expect(errors(featureInput.safeParse({ name: 'a', key: 'a', variants: twins }))).toEqual([
      { field: 'variants.1.key', message: 'Variant keys must be unique.' },
    ]);
  });

  it('normalises issue keys, tags and goal keys', () => {
    const parsed = featureInput.parse({
      name: 'a',
      key: 'a',
      jiraIssueKeys: ['abc 12', 'ABC-12'],
      tags: ['Team A'],
      goals: ['Added To Cart'],
    });
    expect(parsed).toMatchObject({ jiraIssueKeys: ['ABC-12'], tags: ['team-a'], goals: ['added-to-cart'] });
    expect(errors(featureInput.safeParse({ name: 'a', key: 'a', jiraIssueKeys: ['abc'] }))).toEqual([
      { field: 'jiraIssueKeys.0', message: 'Must be an issue key such as ABC-123.' },
    ]);
  });
});

describe('variantForm', () => {
  it('requires a name and a key', () => {
    expect(errors(variantForm.safeParse({}))).toEqual([
      { field: 'key', message: 'Key is required' },
      { field: 'name', message: 'Name is required' },
    ]);
  });
});

describe('variant values', () => {
  it('accepts any JSON value up to 32 KB, and none', () => {
    const base = { key: 'blue', name: 'Blue' };
    expect(variantForm.parse(base).value).toBeUndefined();
    expect(variantForm.parse({ ...base, value: { colour: '#00f', sizes: [1, 2] } }).value).toEqual({
      colour: '#00f',
      sizes: [1, 2],
    });
    expect(variantForm.parse({ ...base, value: 'x'.repeat(32 * 1024 - 2) }).value).toHaveLength(
      32 * 1024 - 2,
    );
  });

  it('refuses a value over 32 KB', () => {
    expect(errors(variantForm.safeParse({ key: 'a', name: 'A', value: 'x'.repeat(32 * 1024) }))).toEqual([
      { field: 'value', message: 'A variant value may be at most 32 KB of JSON.' },
    ]);
  });
});

describe('createFeatureForm', () => {
  it('asks for a project, a name and a key', () => {
    expect(errors(createFeatureForm.safeParse({}))).toEqual([
      { field: 'projectKey', message: 'Please select a project' },
      { field: 'name', message: 'Name is required' },
      { field: 'key', message: 'Key is required' },
    ]);
  });

  it('accepts an empty issue key and normalises a typed one', () => {
    const base = { projectKey: 'mob', name: 'Checkout', key: 'checkout' };
    expect(createFeatureForm.parse(base).jiraIssueKey).toBe('');
    expect(createFeatureForm.parse({ ...base, jiraIssueKey: 'abc-7' }).jiraIssueKey).toBe('ABC-7');
  });
});

describe('linkFeatureForm', () => {
  it('asks for a project and a feature', () => {
    expect(errors(linkFeatureForm.safeParse({ jiraIssueKey: 'ABC-1' }))).toEqual([
      { field: 'projectKey', message: 'Please select a project' },
      { field: 'featureId', message: 'Please select a feature' },
    ]);
    expect(
      errors(linkFeatureForm.safeParse({ projectKey: 'mob', featureId: '', jiraIssueKey: 'ABC-1' })),
    ).toEqual([{ field: 'featureId', message: 'Please select a feature' }]);
  });

  it('accepts a chosen project and feature', () => {
    expect(
      linkFeatureForm.safeParse({ projectKey: 'mob', featureId: ID, jiraIssueKey: 'ABC-1' }).success,
    ).toBe(true);
  });
});

describe('featureFiltersForm', () => {
  it('defaults to recent features sorted by last change, newest first', () => {
    expect(featureFiltersForm.parse({})).toEqual({
      filter: 'recent',
      query: '',
      sortBy: 'lastChanged',
      sortDirection: 'desc',
    });
  });
});

describe('homeFeaturesQuery', () => {
  it('reads the recent list, first page of 50, by last change unless told otherwise', () => {
    expect(homeFeaturesQuery.parse({})).toEqual({
      list: 'recent',
      page: 0,
      pageSize: 50,
      sortBy: 'lastChanged',
    });
    expect(
      homeFeaturesQuery.parse({ list: 'bookmarked', page: '2', sortBy: 'name', sortDirection: 'desc' }),
    ).toEqual({ list: 'bookmarked', page: 2, pageSize: 50, sortBy: 'name', sortDirection: 'desc' });
  });

  it('refuses unknown lists, columns and directions, negative pages and pages over 50', () => {
    for (const query of [
      { list: 'all' },
      { sortBy: 'colour' },
      { sortDirection: 'up' },
      { page: '-1' },
      { page: 'two' },
      { pageSize: '51' },
    ])
      expect(homeFeaturesQuery.safeParse(query).success, JSON.stringify(query)).toBe(false);
  });
});

describe('featureListQuery', () => {
  it('pages by 50, 100 or 500, 50 by default, sorted by name without filters', () => {
    expect(featureListQuery.parse({})).toEqual({ page: 0, pageSize: 50, sortBy: 'name', tag: [] });
    expect(featureListQuery.parse({ page: '2', pageSize: '500' })).toMatchObject({ page: 2, pageSize: 500 });
    expect(featureListQuery.safeParse({ pageSize: '20' }).success).toBe(false);
  });

  it('reads the sort and the filters; a tag once or repeated, normalised, each once', () => {
    expect(
      featureListQuery.parse({
        sortBy: 'lastChanged',
        sortDirection: 'asc',
        tag: 'Team A',
        state: 'off',
        stale: 'true',
        targeting: 'single',
      }),
    ).toEqual({
      page: 0,
      pageSize: 50,
      sortBy: 'lastChanged',
      sortDirection: 'asc',
      tag: ['team-a'],
      state: 'off',
      stale: true,
      targeting: 'single',
    });
    expect(featureListQuery.parse({ tag: ['beta', 'Beta', 'mobile'], stale: 'false' })).toMatchObject({
      tag: ['beta', 'mobile'],
      stale: false,
    });
  });

  it('refuses unknown columns, directions and filter values, saying what is allowed', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ sortBy: 'description' }, 'sortBy', 'Sort must be name, key or lastChanged.'],
      [{ sortDirection: 'up' }, 'sortDirection', 'Sort direction must be asc or desc.'],
      [{ state: 'enabled' }, 'state', 'State must be on or off.'],
      [{ stale: '1' }, 'stale', 'Stale must be true or false.'],
      [{ targeting: 'split' }, 'targeting', 'Targeting must be off, targeted or single.'],
      [{ tag: ['ok', ' '] }, 'tag.1', 'Tag is required'],
    ];
    for (const [query, field, message] of cases)
      expect(errors(featureListQuery.safeParse(query)), JSON.stringify(query)).toEqual([{ field, message }]);
  });
});

describe('bookmarkParams', () => {
  it('reads the bookmarked flag from the path', () => {
    expect(bookmarkParams.parse({ featureId: ID, bookmarked: 'true' }).bookmarked).toBe(true);
    expect(bookmarkParams.parse({ featureId: ID, bookmarked: 'false' }).bookmarked).toBe(false);
  });
});
