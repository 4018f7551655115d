import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './common';
import {
  MASKED_SERVER_SDK_KEY,
  defaultSdkCanCreateFeatures,
  environmentInput,
  environmentSchema,
  isMaskedServerSdkKey,
} from './environments';
import { projectInput, projectSchema } from './projects';
import { ENVIRONMENT, ID, PROJECT } from './test-samples';

const errors = (result: { error?: { issues: Parameters<typeof toFieldErrors>[0] } }) =>
  result.error ? toFieldErrors(result.error.issues) : [];

describe('projectInput', () => {
  it('requires a name ("Name is required") and a key ("Key is required")', () => {
    expect(errors(projectInput.safeParse({ name: '' }))).toEqual([
      { field: 'name', message: 'Name is required' },
      { field: 'key', message: 'Key is required' },
    ]);
    expect(errors(projectInput.safeParse({ name: '   ', key: '   ' }))).toEqual([
      { field: 'name', message: 'Name is required' },
      { field: 'key', message: 'Key is required' },
    ]);
  });

  it('normalises the key to at most 5 lowercase letters or digits', () => {
    expect(projectInput.parse({ name: 'Mobile', key: 'My-Project' }).key).toBe('mypro');
    expect(errors(projectInput.safeParse({ name: 'Mobile', key: '!!!' }))).toEqual([
      { field: 'key', message: 'Key is required' },
    ]);
  });

  it('takes an optional UUID id for updates', () => {
    expect(projectInput.parse({ id: ID, name: 'Mobile', key: 'mob' }).id).toBe(ID);
    expect(projectInput.safeParse({ id: 'not-a-uuid', name: 'Mobile', key: 'mob' }).success).toBe(false);
  });
});

describe('projectSchema', () => {
  it('accepts a project with environments and targets', () => {
    expect(projectSchema.parse(PROJECT)).toEqual(PROJECT);
  });
});

describe('environmentSchema', () => {
  it('accepts an environment with both SDK keys', () => {
    expect(environmentSchema.parse(ENVIRONMENT)).toEqual(ENVIRONMENT);
  });

  it('accepts the masked server key shown to those who may not change the environment', () => {
    const masked = { ...ENVIRONMENT, apiKey: MASKED_SERVER_SDK_KEY };
    expect(environmentSchema.parse(masked)).toEqual(masked);
    expect(isMaskedServerSdkKey(MASKED_SERVER_SDK_KEY)).toBe(true);
    expect(isMaskedServerSdkKey(ENVIRONMENT.apiKey)).toBe(false);
    expect(
      environmentSchema.safeParse({ ...ENVIRONMENT, jsApiKey: 'sdk-js-env-' + '*'.repeat(32) }).success,
    ).toBe(false);
  });

  it('rejects SDK keys that are not sdk-srv-env-/sdk-js-env- and 32 hex digits', () => {
    expect(environmentSchema.safeParse({ ...ENVIRONMENT, apiKey: 'srv-env-123' }).success).toBe(false);
    expect(environmentSchema.safeParse({ ...ENVIRONMENT, jsApiKey: ENVIRONMENT.apiKey }).success).toBe(false);
  });
});

describe('environmentInput', () => {
  const valid = { projectKey: 'mob', name: 'QA Env', key: 'QA Env' };

  it('requires a name and a key with the project messages', () => {
    expect(errors(environmentInput.safeParse({ projectKey: 'mob' }))).toEqual([
      { field: 'name', message: 'Name is required' },
      { field: 'key', message: 'Key is required' },
    ]);
  });

  it('lowercases the key and turns characters outside [a-z0-9_] into hyphens', () => {
    expect(environmentInput.parse(valid).key).toBe('qa-env');
  });

  it('defaults the colour to #1273de, local and production to false, url to empty', () => {
    expect(environmentInput.parse(valid)).toEqual({
      projectKey: 'mob',
      name: 'QA Env',
      key: 'qa-env',
      url: '',
      color: '#1273de',
      local: false,
      production: false,
      tags: [],
    });
  });

  it('requires a hex colour when one is given', () => {
    expect(errors(environmentInput.safeParse({ ...valid, color: '' }))).toEqual([
      { field: 'color', message: 'Color is required' },
    ]);
    expect(environmentInput.safeParse({ ...valid, color: 'red' }).success).toBe(false);
    expect(environmentInput.safeParse({ ...valid, color: '#ABC' }).success).toBe(true);
  });

  it('accepts only http(s) urls', () => {
    expect(environmentInput.safeParse({ ...valid, url: 'https://qa.example.com' }).success).toBe(true);
    expect(errors(environmentInput.safeParse({ ...valid, url: 'javascript:alert(1)' }))).toEqual([
      { field: 'url', message: 'Must be a valid http(s) URL.' },
    ]);
  });

  it('normalises and de-duplicates tags', () => {
    expect(environmentInput.parse({ ...valid, tags: ['EU West', 'eu-west'] }).tags).toEqual(['eu-west']);
  });

  it('takes an optional sdkCanCreateFeatures, defaulting to off only in production', () => {
    expect(environmentInput.parse({ ...valid, sdkCanCreateFeatures: true }).sdkCanCreateFeatures).toBe(true);
    expect(environmentInput.safeParse({ ...valid, sdkCanCreateFeatures: 'yes' }).success).toBe(false);
    expect(defaultSdkCanCreateFeatures({ production: true })).toBe(false);
    expect(defaultSdkCanCreateFeatures({ production: false, tags: ['production'] })).toBe(false);
    expect(defaultSdkCanCreateFeatures({ production: false })).toBe(true);
  });

  it('takes the environment to clone as a UUID', () => {
    expect(environmentInput.parse({ ...valid, cloneEnvironmentId: ID }).cloneEnvironmentId).toBe(ID);
    expect(environmentInput.safeParse({ ...valid, cloneEnvironmentId: 'prod' }).success).toBe(false);
  });
});
