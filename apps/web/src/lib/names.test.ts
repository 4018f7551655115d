import { describe, expect, it } from 'vitest';
import { fullName, initials } from './names';

describe('fullName and initials', () => {
  it('joins the names, or falls back to the e-mail', () => {
    expect(fullName({ firstName: 'Demo', lastName: 'Admin', email: 'a@example.com' })).toBe('Demo Admin');
    expect(fullName({ firstName: null, lastName: ' ', email: 'a@example.com' })).toBe('a@example.com');
    expect(initials({ firstName: 'demo', lastName: 'admin', email: 'a@example.com' })).toBe('DA');
    expect(initials({ email: 'zed@example.com' })).toBe('Z');
  });
});
