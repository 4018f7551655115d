import { describe, expect, it } from 'vitest';
import { invitationLink, invitesResultSchema, teamMemberSchema } from './team-members';
import { USER } from './test-samples';

describe('invitationLink', () => {
  it('is {public URL}/invited/{activationKey}, whatever slashes end the URL', () => {
    expect(invitationLink('https://flags.example.com', 'vxi_abc-_9')).toBe(
      'https://flags.example.com/invited/vxi_abc-_9',
    );
    expect(invitationLink('https://flags.example.com/vexil//', 'vxi_abc')).toBe(
      'https://flags.example.com/vexil/invited/vxi_abc',
    );
  });

  it('keeps the key one path segment', () => {
    expect(invitationLink('http://localhost:3000', 'a/b?c')).toBe('http://localhost:3000/invited/a%2Fb%3Fc');
  });
});

describe('teamMemberSchema', () => {
  it('is a user with the expiry of a pending invitation', () => {
    const pending = { ...USER, activated: false, invitationExpiresDate: '2026-01-08T00:00:00.000Z' };
    expect(teamMemberSchema.parse(pending)).toEqual(pending);
    expect(teamMemberSchema.safeParse(USER).success).toBe(false);
  });
});

describe('invitesResultSchema', () => {
  it('says how the invitations went out, with a link only when one was not e-mailed', () => {
    const result = {
      mail: 'not_configured',
      message: 'Mail is not configured.',
      invitations: [
        {
          id: USER.id,
          email: 'ada@example.com',
          resent: false,
          mail: 'not_configured',
          link: 'http://localhost:3000/invited/vxi_abc',
          expiresDate: '2026-01-08T00:00:00.000Z',
        },
      ],
    };
    expect(invitesResultSchema.parse(result)).toEqual(result);
    expect(invitesResultSchema.safeParse({ ...result, mail: 'queued' }).success).toBe(false);
  });
});
