import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './common';
import { segmentForm, segmentInput } from './segments';

const errors = (result: { error?: { issues: Parameters<typeof toFieldErrors>[0] } }) =>
  result.error ? toFieldErrors(result.error.issues) : [];

describe('segmentForm', () => {
  it('uses the field names segmentKey, segmentName and segmentDescription', () => {
    expect(segmentForm.parse({ segmentKey: 'Beta Users', segmentName: 'Beta' })).toEqual({
      segmentKey: 'beta-users',
      segmentName: 'Beta',
      segmentDescription: '',
    });
  });

  it('requires a key and a name', () => {
    expect(errors(segmentForm.safeParse({}))).toEqual([
      { field: 'segmentKey', message: 'Key is required' },
      { field: 'segmentName', message: 'Name is required' },
    ]);
  });
});

describe('segmentInput', () => {
  it('carries the project and environment', () => {
    const body = { projectKey: 'mob', environmentKey: 'production', key: 'beta', name: 'Beta' };
    expect(segmentInput.parse(body)).toEqual({ ...body, description: '' });
    expect(errors(segmentInput.safeParse({ ...body, projectKey: '' }))).toEqual([
      { field: 'projectKey', message: 'Project is required' },
    ]);
  });
});
