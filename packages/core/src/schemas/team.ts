import { z } from 'zod';
import { AUTHORITIES, AUTHORITY_NAMES } from '../permissions';
import { MAX_LENGTH, dateTimeSchema, email, idSchema, optionalText, text } from './common';

/** Any authority name. */
export const authoritySchema = z.enum(AUTHORITY_NAMES);

/**
 * Roles an organisation admin may give a member. `ROLE_ADMIN` is the operator of the whole
 * installation and is never granted from the dashboard.
 */
export const ASSIGNABLE_AUTHORITIES = [
  AUTHORITIES.ROLE_ORGANISATION_ADMIN,
  AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR,
  AUTHORITIES.ROLE_ORGANISATION_EDITOR,
  AUTHORITIES.ROLE_ORGANISATION_READONLY_USER,
] as const;

/** Settings of a user: when the welcome walkthrough was dismissed. */
export const userSettingsSchema = z.object({ introReadDate: dateTimeSchema.nullable() });

/** A member of the organisation (docs/product.md §3). `authority` is the primary one of `authorities`. */
export const userSchema = z.object({
  id: idSchema,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  authority: authoritySchema.nullable(),
  authorities: z.array(authoritySchema),
  /** False while the invitation is pending. */
  activated: z.boolean(),
  hash: z.string(),
  settings: userSettingsSchema,
  login: z.string(),
  userHash: z.string(),
  langKey: z.string(),
  activatedDate: dateTimeSchema.nullable(),
});
/** Type of {@link userSchema}. */
export type User = z.infer<typeof userSchema>;

/** Invitation status label of a member (docs/product.md §4). */
export function invitationStatus(user: { activated: boolean }): 'Invitation Pending' | 'Active' {
  return user.activated ? 'Active' : 'Invitation Pending';
}

/**
 * Body of PUT /api/v1/users and the Update User modal. The e-mail is not editable; the server
 * refuses a change to one's own role (docs/product.md §5).
 */
export const userUpdateInput = z.object({
  id: idSchema,
  firstName: text({ max: MAX_LENGTH.name, required: 'First name is required' }),
  lastName: text({ max: MAX_LENGTH.name, required: 'Last name is required' }),
  authority: z.enum(ASSIGNABLE_AUTHORITIES, { error: 'Role is required' }),
});
/** Type of {@link userUpdateInput}. */
export type UserUpdateInput = z.infer<typeof userUpdateInput>;
/** The Update User modal: same rules as {@link userUpdateInput}. */
export const userForm = userUpdateInput;
/** Type of {@link userForm}. */
export type UserForm = UserUpdateInput;

/** One invitation row (docs/product.md §5): e-mail required and valid, names optional. */
export const inviteSchema = z.object({
  email: email({ required: 'Required', invalid: 'Email must be valid' }),
  firstName: optionalText(MAX_LENGTH.name),
  lastName: optionalText(MAX_LENGTH.name),
});
/** Type of {@link inviteSchema}. */
export type Invite = z.infer<typeof inviteSchema>;

/** Most invitations sent at once. */
export const MAX_INVITES = 50;

/** Body of POST /api/v1/invites: an array of invitations. */
export const invitesInput = z
  .array(inviteSchema)
  .min(1, 'At least one invitation is required.')
  .max(MAX_INVITES, `At most ${MAX_INVITES} invitations can be sent at once.`);
/** Type of {@link invitesInput}. */
export type InvitesInput = z.infer<typeof invitesInput>;

/** The Invite Users modal: at least one row remains. */
export const inviteForm = z.object({ invites: invitesInput });
/** Type of {@link inviteForm}. */
export type InviteForm = z.infer<typeof inviteForm>;

/**
 * Response of GET /api/v1/signup/invitee/{activationKey}. `seatAvailable` is false while the
 * organisation's plan has no seat left for one more active member (its plan shrank since the
 * invitation was sent): the invitation cannot be accepted until an admin makes room.
 */
export const inviteeSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  organisationName: z.string(),
  /** Where the invitee signs in: `/{organisationDomain}/login`. */
  organisationDomain: z.string(),
  alreadyActivated: z.boolean(),
  seatAvailable: z.boolean(),
});
/** Type of {@link inviteeSchema}. */
export type Invitee = z.infer<typeof inviteeSchema>;

/** An invitation cannot be accepted: the organisation's plan has no seat left (title of the 400). */
export const INVITEE_NO_SEAT_MESSAGE = 'There is no seat left for you yet';

/** Why, in full: on the invited sign-up page and as the refusal's detail. */
export function inviteeNoSeatDetail(organisationName: string): string {
  return `${organisationName}'s plan has no seat left for another member. Ask an organisation admin of ${organisationName} to add seats or free one, then open this link again: it works until it expires.`;
}

/** An entry of GET /api/v1/members (maintainer picker). */
export const memberSchema = z.object({ id: idSchema, name: z.string() });
/** Type of {@link memberSchema}. */
export type Member = z.infer<typeof memberSchema>;
