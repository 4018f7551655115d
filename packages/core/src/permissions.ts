/**
 * Roles and permissions (docs/product.md §6), shared by the server (enforcement) and the dashboard
 * (enabling buttons). Pure: no I/O, no zod.
 */

/** The authorities a user can hold, as sent on the wire. */
export const AUTHORITIES = {
  ROLE_ADMIN: 'ROLE_ADMIN',
  ROLE_ORGANISATION_ADMIN: 'ROLE_ORGANISATION_ADMIN',
  ROLE_ORGANISATION_PROD_EDITOR: 'ROLE_ORGANISATION_PROD_EDITOR',
  ROLE_ORGANISATION_EDITOR: 'ROLE_ORGANISATION_EDITOR',
  ROLE_ORGANISATION_READONLY_USER: 'ROLE_ORGANISATION_READONLY_USER',
} as const;

/** One authority name, e.g. `ROLE_ORGANISATION_EDITOR`. */
export type Authority = (typeof AUTHORITIES)[keyof typeof AUTHORITIES];

/** Every authority, most powerful first. */
export const AUTHORITY_NAMES = [
  AUTHORITIES.ROLE_ADMIN,
  AUTHORITIES.ROLE_ORGANISATION_ADMIN,
  AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR,
  AUTHORITIES.ROLE_ORGANISATION_EDITOR,
  AUTHORITIES.ROLE_ORGANISATION_READONLY_USER,
] as const satisfies readonly Authority[];

/** Role badges shown in the team table (docs/product.md §6). */
export const AUTHORITY_LABELS: Readonly<Record<Authority, string>> = {
  ROLE_ADMIN: 'Administrator',
  ROLE_ORGANISATION_ADMIN: 'Organisation admin',
  ROLE_ORGANISATION_PROD_EDITOR: 'Production editor',
  ROLE_ORGANISATION_EDITOR: 'Non-Production editor',
  ROLE_ORGANISATION_READONLY_USER: 'Read-only user',
};

/** What a principal wants to do. `manage` is organisation-admin administration. */
export type Action = 'create' | 'update' | 'delete' | 'read' | 'manage';

/** Every {@link Action}, for exhaustive tables. */
export const ACTIONS = ['create', 'update', 'delete', 'read', 'manage'] as const satisfies readonly Action[];

/** The environment facts a permission depends on. */
export interface EnvironmentConstraint {
  production: boolean;
  tags?: readonly string[];
}

/** What an action is performed on. */
export type Resource =
  /** Administration: projects, environments, billing, integrations, users, invites, roles, tokens. */
  | { type: 'organisation' }
  | { type: 'project' }
  | { type: 'environment' }
  /** Feature settings apply across environments; pass the environment when acting in one. */
  | { type: 'feature'; environment?: EnvironmentConstraint }
  | { type: 'featureControl'; environment: EnvironmentConstraint }
  | { type: 'segment'; environment: EnvironmentConstraint }
  /** The users SDKs reported in an environment (forgetting one needs the environment's edit rights). */
  | { type: 'targetUser'; environment: EnvironmentConstraint }
  | { type: 'experiment'; environment: EnvironmentConstraint }
  | { type: 'target' }
  | { type: 'audit' };

/** The part of a user that permissions read. Unknown authority strings are ignored. */
export interface Principal {
  authorities: readonly string[];
}

// Higher rank includes every right of a lower one.
const RANK: Readonly<Record<Authority, number>> = {
  ROLE_ADMIN: 4,
  ROLE_ORGANISATION_ADMIN: 4,
  ROLE_ORGANISATION_PROD_EDITOR: 3,
  ROLE_ORGANISATION_EDITOR: 2,
  ROLE_ORGANISATION_READONLY_USER: 1,
};
const READ_ONLY = 1;
const EDITOR = 2;
const PRODUCTION_EDITOR = 3;
const ORGANISATION_ADMIN = 4;

function isAuthority(value: string): value is Authority {
  return Object.hasOwn(RANK, value);
}

function rankOf(principal: Principal): number {
  let rank = 0;
  for (const authority of principal.authorities) {
    if (isAuthority(authority)) rank = Math.max(rank, RANK[authority]);
  }
  return rank;
}

/**
 * The most powerful known authority of a list, or `null` when there is none: the one role
 * badge to show for a user holding several.
 */
export function primaryAuthority(authorities: readonly string[]): Authority | null {
  return AUTHORITY_NAMES.find((name) => authorities.includes(name)) ?? null;
}

/** True for organisation admins and the system administrator (`ROLE_ADMIN`). */
export function isOrganisationAdmin(principal: Principal): boolean {
  return rankOf(principal) >= ORGANISATION_ADMIN;
}

/** Production edit rights (docs/product.md §6): production editor, organisation admin or `ROLE_ADMIN`. */
export function hasProductionEditRights(principal: Principal): boolean {
  return rankOf(principal) >= PRODUCTION_EDITOR;
}

/**
 * Whether an environment counts as production. Besides the "Production Environment?" marker, a
 * `production` tag (any case) also counts, because docs/product.md §6 checks "environment tags and the
 * production marker" and treating more environments as protected is the safe reading.
 */
export function isProductionEnvironment(environment: EnvironmentConstraint): boolean {
  return environment.production || (environment.tags ?? []).some((tag) => tag.toLowerCase() === 'production');
}

function editRankFor(environment: EnvironmentConstraint | undefined): number {
  return environment && isProductionEnvironment(environment) ? PRODUCTION_EDITOR : EDITOR;
}

/**
 * Decides whether `principal` may perform `action` on `resource` (docs/product.md §6).
 *
 * - Any known authority may `read` everything except `organisation` administration.
 * - `manage`, and every action on `organisation`, `project` and `environment` other than
 *   `read`, needs an organisation admin (or `ROLE_ADMIN`).
 * - create/update/delete on features, controls, segments, experiments and targets needs an
 *   editor; in a production environment a production editor. Read-only users never write.
 * - Deleting a feature always needs production edit rights, since it removes the feature from
 *   every environment, production included (see {@link featureDeleteDenial}).
 * - The audit log is append-only: nobody creates, updates or deletes audit items through it.
 * - A principal with no known authority may do nothing.
 */
export function can(principal: Principal, action: Action, resource: Resource): boolean {
  const rank = rankOf(principal);
  if (rank < READ_ONLY) return false;
  if (resource.type === 'organisation') return rank >= ORGANISATION_ADMIN;
  if (action === 'read') return true;
  if (action === 'manage') return rank >= ORGANISATION_ADMIN;
  switch (resource.type) {
    case 'project':
    case 'environment':
      return rank >= ORGANISATION_ADMIN;
    case 'audit':
      return false;
    case 'target':
      return rank >= EDITOR;
    case 'feature':
      if (action === 'delete') return rank >= PRODUCTION_EDITOR;
      return rank >= editRankFor(resource.environment);
    case 'featureControl':
    case 'segment':
    case 'experiment':
    case 'targetUser':
      return rank >= editRankFor(resource.environment);
  }
}

/**
 * Whether `principal` may see an environment's server SDK key. The key downloads every flag with its
 * rules and lets an SDK register features, so only those who may change the environment's flags see
 * it: editors for other environments, production editors for production ones. The JS client key is
 * public and always shown.
 */
export function canSeeServerSdkKey(principal: Principal, environment: EnvironmentConstraint): boolean {
  return can(principal, 'update', { type: 'featureControl', environment });
}
