import { describe, expect, it } from 'vitest';
import {
  forgetOrganisation,
  readRememberedOrganisation,
  rememberOrganisation,
} from './remembered-organisation';

describe('remembered organisation', () => {
  it('keeps the domain in a readable cookie named subdomain', () => {
    rememberOrganisation('Demo');
    expect(document.cookie).toContain('subdomain=demo');
    expect(readRememberedOrganisation()).toBe('demo');
    forgetOrganisation();
    expect(readRememberedOrganisation()).toBeNull();
  });
});
