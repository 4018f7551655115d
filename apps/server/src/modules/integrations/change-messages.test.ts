import { describe, expect, it } from 'vitest';
import { organisationDashboard } from './change-messages';

describe('organisationDashboard', () => {
  it('addresses the organisation by its sub-domain when the public address is the base domain', () => {
    expect(organisationDashboard('https://flags.example.com', 'flags.example.com', 'acme')).toBe(
      'https://acme.flags.example.com',
    );
    expect(organisationDashboard('http://vexil.test:8080/', 'vexil.test', 'acme')).toBe(
      'http://acme.vexil.test:8080',
    );
  });

  it('uses the path form elsewhere: localhost, or a public address outside the base domain', () => {
    expect(organisationDashboard('http://localhost:3000', 'localhost', 'acme')).toBe(
      'http://localhost:3000/acme',
    );
    expect(organisationDashboard('https://vexil.internal/', 'flags.example.com', 'acme')).toBe(
      'https://vexil.internal/acme',
    );
  });
});
