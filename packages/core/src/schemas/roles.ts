import { z } from 'zod';
import { normaliseTag } from '../keys';
import {
  AUTHORITIES,
  GRANT_ACTIONS,
  GRANT_RESOURCES,
  type Grant,
  type GrantAction,
  type GrantEnvironments,
  type GrantResource,
} from '../permissions';
import { MAX_LENGTH, MAX_TAGS, idSchema, normalisedKey, optionalText, text } from './common';
import { ASSIGNABLE_AUTHORITIES, authoritySchema } from './team';

/*
 * Custom roles (Admin › Roles, docs/product.md §6): a name, a description and grants, each adding
 * create/update/delete rights on some resources, within some projects and environments, to the rights
 * of a member's authority. Core's `Grant` (permissions.ts) is what `can()` reads; these schemas check
 * what travels.
 */

/** Most grants one role may carry. */
export const MAX_GRANTS = 50;
/** Most projects one grant may name (beyond that, "All projects" is the honest choice). */
export const MAX_GRANT_PROJECTS = 200;
/** Most members a role may be given to in one request. */
export const MAX_ROLE_MEMBERS = 1000;

export const GRANT_MESSAGES = {
  actions: 'Choose at least one action.',
  resources: 'Choose at least one resource.',
  projects: 'Choose at least one project, or all projects.',
  tags: 'Name at least one tag.',
  action: `Action must be one of ${GRANT_ACTIONS.join(', ')}.`,
  resource: `Resource must be one of ${GRANT_RESOURCES.join(', ')}.`,
  environments: 'Environments must be all, nonProduction or tagged.',
} as const;

/** docs/product.md §8 "Role". */
export const ROLE_DELETED_MESSAGE = 'Role has been deleted';
export const ROLE_DELETE_FAILED_MESSAGE = 'There was an error deleting the role';

/** The role name is taken (compared without case): refused with 400 on `name`. */
export const roleNameTakenMessage = (name: string) => `A role named "${name}" already exists.`;

/** Each entry once, in the order of `order`: `['delete', 'create', 'create']` → `['create', 'delete']`. */
function canonical<T extends string>(order: readonly T[]) {
  return (values: T[]) => order.filter((value) => values.includes(value));
}

/** Which environments a grant reaches: all, the non-production ones, or those carrying a tag. */
export const grantEnvironmentsSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('all') }),
    z.object({ kind: z.literal('nonProduction') }),
    z.object({
      kind: z.literal('tagged'),
      // Normalised like environment tags, so that what is typed matches what environments carry.
      tags: z
        .array(normalisedKey(normaliseTag, 'Tag is required'))
        .min(1, GRANT_MESSAGES.tags)
        .max(MAX_TAGS, `At most ${MAX_TAGS} tags are allowed.`)
        .overwrite((tags) => [...new Set(tags)]),
    }),
  ],
  { error: GRANT_MESSAGES.environments },
);

/**
 * One grant: at least one action and one resource; `projects` are project ids, or `null` for every
 * project, present and future. Repeated entries are dropped.
 */
export const grantSchema = z.object({
  actions: z
    .array(z.enum(GRANT_ACTIONS, { error: GRANT_MESSAGES.action }), { error: GRANT_MESSAGES.actions })
    .overwrite(canonical<GrantAction>(GRANT_ACTIONS))
    .min(1, GRANT_MESSAGES.actions),
  resources: z
    .array(z.enum(GRANT_RESOURCES, { error: GRANT_MESSAGES.resource }), { error: GRANT_MESSAGES.resources })
    .overwrite(canonical<GrantResource>(GRANT_RESOURCES))
    .min(1, GRANT_MESSAGES.resources),
  projects: z
    .array(idSchema, { error: GRANT_MESSAGES.projects })
    .max(MAX_GRANT_PROJECTS, `At most ${MAX_GRANT_PROJECTS} projects; choose all projects instead.`)
    .overwrite((ids) => [...new Set(ids)])
    .min(1, GRANT_MESSAGES.projects)
    .nullable(),
  environments: grantEnvironmentsSchema,
});
/** Type of {@link grantSchema}: a {@link Grant} as it travels and is stored. */
export type RoleGrant = z.infer<typeof grantSchema>;

/** A member holding a role. */
export const roleMemberSchema = z.object({ id: idSchema, name: z.string() });
/** Type of {@link roleMemberSchema}. */
export type RoleMember = z.infer<typeof roleMemberSchema>;

/** A custom role, with the members who hold it (GET /api/v1/roles). */
export const roleSchema = z.object({
  id: idSchema,
  name: z.string(),
  description: z.string(),
  grants: z.array(grantSchema),
  members: z.array(roleMemberSchema),
});
/** Type of {@link roleSchema}. */
export type Role = z.infer<typeof roleSchema>;

/**
 * Body of PUT /api/v1/roles and the Update Role modal: without `id` it creates a role, with one it
 * updates it. The name is required and unique in the organisation (without case); the server checks
 * that the grants' projects are the organisation's.
 */
export const roleInput = z.object({
  id: idSchema.optional(),
  name: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
  description: optionalText(MAX_LENGTH.description),
  grants: z
    .array(grantSchema, { error: 'Grants must be a list.' })
    .max(MAX_GRANTS, `At most ${MAX_GRANTS} grants per role.`)
    .default([]),
});
/** Type of {@link roleInput} (as parsed). */
export type RoleInput = z.infer<typeof roleInput>;
/** The Update Role modal: same rules as {@link roleInput}. */
export const roleForm = roleInput;
/** Type of {@link roleForm} as the form holds it. */
export type RoleForm = z.input<typeof roleForm>;

/** Body of PUT /api/v1/roles/{id}/members: who holds the role from now on (activated members only). */
export const roleMembersInput = z.object({
  userIds: z
    .array(idSchema, { error: 'userIds must be a list of member ids.' })
    .max(MAX_ROLE_MEMBERS, `At most ${MAX_ROLE_MEMBERS} members at once.`)
    .overwrite((ids) => [...new Set(ids)]),
});
/** Type of {@link roleMembersInput}. */
export type RoleMembersInput = z.infer<typeof roleMembersInput>;

/** An entry of GET /api/v1/iam/authorities: a built-in authority and what it may do. */
export const authorityOptionSchema = z.object({ name: authoritySchema, description: z.string() });
/** Type of {@link authorityOptionSchema}. */
export type AuthorityOption = z.infer<typeof authorityOptionSchema>;

/** What each built-in authority may do (docs/product.md §6), as Role Management shows it. */
export const AUTHORITY_DESCRIPTIONS: Readonly<Record<(typeof ASSIGNABLE_AUTHORITIES)[number], string>> = {
  [AUTHORITIES.ROLE_ORGANISATION_ADMIN]:
    'Everything: manages projects, environments, the team, roles and access tokens, and changes every feature, segment and target.',
  [AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR]:
    'Creates, changes and deletes features, segments and targets in every environment, production included.',
  [AUTHORITIES.ROLE_ORGANISATION_EDITOR]:
    'Creates and changes features, segments and targets outside production environments; reads production.',
  [AUTHORITIES.ROLE_ORGANISATION_READONLY_USER]:
    'Reads every project, feature and environment and changes nothing, unless a custom role grants it.',
};

/** The built-in authorities, most powerful first, with what each may do. */
export const AUTHORITY_OPTIONS: readonly AuthorityOption[] = ASSIGNABLE_AUTHORITIES.map((name) => ({
  name,
  description: AUTHORITY_DESCRIPTIONS[name],
}));

/** How the Roles screen names each action. */
export const GRANT_ACTION_LABELS: Readonly<Record<GrantAction, string>> = {
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
  approve: 'Approve',
  bypass: 'Bypass approvals',
};

/** How the Roles screen names each resource. */
export const GRANT_RESOURCE_LABELS: Readonly<Record<GrantResource, string>> = {
  feature: 'Features',
  featureControl: 'Feature controls',
  segment: 'Segments',
  target: 'Targets',
  experiment: 'Experiments',
  changeRequest: 'Change requests',
};

function list(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** "all environments", "non-production environments", "environments tagged eu or us". */
export function describeGrantEnvironments(scope: GrantEnvironments): string {
  switch (scope.kind) {
    case 'all':
      return 'all environments';
    case 'nonProduction':
      return 'non-production environments';
    case 'tagged':
      return `environments tagged ${scope.tags.join(' or ')}`;
  }
}

/**
 * One grant in a sentence, e.g. "Create and update feature controls in Web shop, non-production
 * environments". `projectName` names a project by id; one it does not know reads "a deleted project".
 */
export function describeGrant(grant: Grant, projectName: (id: string) => string | undefined): string {
  const actions = list(grant.actions.map((action) => GRANT_ACTION_LABELS[action]));
  const resources = list(grant.resources.map((resource) => GRANT_RESOURCE_LABELS[resource].toLowerCase()));
  const projects =
    grant.projects === null
      ? 'all projects'
      : list(grant.projects.map((id) => projectName(id) ?? 'a deleted project'));
  return `${actions} ${resources} in ${projects}, ${describeGrantEnvironments(grant.environments)}`;
}
