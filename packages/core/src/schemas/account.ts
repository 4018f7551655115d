import { z } from 'zod';
import { dateTimeSchema, idSchema } from './common';
import { subscriptionSchema } from './billing';
import { projectSummarySchema } from './projects';
import { grantSchema } from './roles';
import { authoritySchema } from './team';

/** UI feature flags that gate routes, nav items and buttons (docs/product.md §9), in spec order. */
export const UI_FLAGS = [
  'billing',
  'impressions-limits',
  'jira-integration',
  'roles-admin',
  'access-tokens',
  'integrations',
  'tags',
  'maintainer',
  'bookmarked',
  'experiments',
  'segments',
  'tutorial-tab',
  'traffic',
  'home',
  'home-projects',
  'profile',
  'app-login',
  'welcome-message',
] as const;
/** One UI flag name. */
export type UiFlag = (typeof UI_FLAGS)[number];

// An object rather than z.record: it requires every flag yet strips flags a newer server adds.
const uiFlagsShape = Object.fromEntries(UI_FLAGS.map((flag) => [flag, z.boolean()])) as Record<
  UiFlag,
  z.ZodBoolean
>;

/** Every UI flag with its state. */
export const uiFlagsSchema = z.object(uiFlagsShape);
/** Type of {@link uiFlagsSchema}. */
export type UiFlags = z.infer<typeof uiFlagsSchema>;

/** The signed-in user, as the initial payload carries it. */
export const principalUserSchema = z.object({
  id: idSchema,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  login: z.string(),
  userHash: z.string(),
  authorities: z.array(authoritySchema),
  /** The grants of the custom roles the user holds, so that the dashboard's `can()` agrees with the server. */
  grants: z.array(grantSchema).optional(),
  langKey: z.string(),
  activatedDate: dateTimeSchema.nullable(),
  settings: z.object({ introReadDate: dateTimeSchema.nullable() }),
});
/** Type of {@link principalUserSchema}. */
export type PrincipalUser = z.infer<typeof principalUserSchema>;

/** The organisation the user signed in to; `domain` is its sub-domain. */
export const organisationSchema = z.object({
  id: idSchema,
  name: z.string(),
  domain: z.string(),
  settings: z.object({ jiraEnabled: z.boolean() }),
});
/** Type of {@link organisationSchema}. */
export type Organisation = z.infer<typeof organisationSchema>;

/** Response of GET /api/v1/initial: everything the dashboard needs after login. */
export const initialPayloadSchema = z.object({
  principalUser: principalUserSchema,
  organisation: organisationSchema,
  projects: z.array(projectSummarySchema),
  /** `null` when billing is off (self-hosted without plans). */
  subscription: subscriptionSchema.nullable(),
  flags: uiFlagsSchema,
});
/** Type of {@link initialPayloadSchema}. */
export type InitialPayload = z.infer<typeof initialPayloadSchema>;
