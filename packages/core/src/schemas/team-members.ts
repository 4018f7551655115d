import { z } from 'zod';
import { AUTHORITIES } from '../permissions';
import { dateTimeSchema, idSchema } from './common';
import { userSchema } from './team';

/** Who may use Team Management, on the server and in the dashboard. */
export const TEAM_ADMIN_ONLY = 'Only organisation admins may manage the team.';
/** docs/product.md §5: a user cannot change their own role… */
export const OWN_ROLE_MESSAGE = 'You cannot change your own role.';
/** …nor remove themselves. */
export const REMOVE_SELF_MESSAGE = 'You cannot remove yourself from the organisation.';
/** Demoting or removing the last organisation admin would leave nobody to manage the organisation. */
export const LAST_ADMIN_MESSAGE =
  'The organisation must keep at least one organisation admin: make someone else an organisation admin first.';
/** docs/product.md §2: Edit Member is for activated users only. */
export const PENDING_EDIT_MESSAGE =
  'An invitation cannot be edited. Cancel it and invite the person again, or wait until they have joined.';
/** docs/product.md §8: the Team Management toasts. */
export const USER_REMOVED_MESSAGE = 'User has been removed';
/** Cancelling a pending invitation (Cancel Invite) removes nobody: it says so. */
export const INVITATION_CANCELLED_MESSAGE = 'Invitation cancelled.';
export const USER_DELETE_FAILED_MESSAGE = 'There was an error deleting the user';
export const INVITATIONS_SENT_MESSAGE = 'Invitations sent.';

/** The role an invited person joins with; an admin changes it once they are active. */
export const INVITED_AUTHORITY = AUTHORITIES.ROLE_ORGANISATION_READONLY_USER;
/** How long an invitation link works. */
export const INVITATION_LIFETIME_DAYS = 7;

/** The link an invitation sends: `{public URL}/invited/{activationKey}` (docs/product.md §2). */
export function invitationLink(publicUrl: string, activationKey: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/invited/${encodeURIComponent(activationKey)}`;
}

/**
 * A row of Team Management (GET /api/v1/users): an active member, or a pending invitation (a user
 * not yet activated).
 */
export const teamMemberSchema = userSchema.extend({
  /** When a pending invitation's link stops working; null for active members. */
  invitationExpiresDate: dateTimeSchema.nullable(),
});
/** Type of {@link teamMemberSchema}. */
export type TeamMember = z.infer<typeof teamMemberSchema>;

/**
 * How an invitation went out: e-mailed; not e-mailed because this server has no mail server
 * (`SMTP_URL`); or e-mailing it failed (the invitation is kept and can be sent again).
 */
export const INVITATION_MAIL_STATES = ['sent', 'not_configured', 'failed'] as const;
/** One of {@link INVITATION_MAIL_STATES}. */
export type InvitationMailState = (typeof INVITATION_MAIL_STATES)[number];

/** One invitation of a POST /api/v1/invites answer. */
export const invitationSchema = z.object({
  /** The pending user's id (Cancel Invite deletes it). */
  id: idSchema,
  email: z.string(),
  /** True when the address already had a pending invitation, whose link this one replaced. */
  resent: z.boolean(),
  mail: z.enum(INVITATION_MAIL_STATES),
  /**
   * The `/invited/{activationKey}` link, for the admin to pass on, when it was not e-mailed: the key
   * is stored hashed and is never shown again.
   */
  link: z.string().nullable(),
  expiresDate: dateTimeSchema,
});
/** Type of {@link invitationSchema}. */
export type Invitation = z.infer<typeof invitationSchema>;

/** Response of POST /api/v1/invites. */
export const invitesResultSchema = z.object({
  /** `sent` when every e-mail went out, `not_configured` without a mail server, else `failed`. */
  mail: z.enum(INVITATION_MAIL_STATES),
  /** What the admin reads: "Invitations sent.", that mail is not configured, or what failed. */
  message: z.string(),
  invitations: z.array(invitationSchema),
});
/** Type of {@link invitesResultSchema}. */
export type InvitesResult = z.infer<typeof invitesResultSchema>;
