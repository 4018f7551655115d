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

/**
 * What a principal wants to do. `manage` is organisation-admin administration. `approve` and
 * `bypass` act on an environment's change requests (docs/adr/0024-change-requests.md): approving
 * them, and writing directly to an environment that asks for them.
 */
export type Action = 'create' | 'update' | 'delete' | 'read' | 'manage' | 'approve' | 'bypass';

/** Every {@link Action}, for exhaustive tables. */
export const ACTIONS = [
  'create',
  'update',
  'delete',
  'read',
  'manage',
  'approve',
  'bypass',
] as const satisfies readonly Action[];

/** The environment facts a permission depends on. */
export interface EnvironmentConstraint {
  production: boolean;
  tags?: readonly string[];
  /** The project the environment belongs to: what a custom role limited to some projects reads. */
  projectId?: string;
}

/** What an action is performed on. */
export type Resource =
  /** Administration: projects, environments, billing, integrations, users, invites, roles, tokens. */
  | { type: 'organisation' }
  | { type: 'project' }
  | { type: 'environment' }
  /**
   * Feature settings apply across environments; pass the environment when acting in one. `projectId`
   * (or the environment's) lets a custom role limited to some projects apply.
   */
  | { type: 'feature'; environment?: EnvironmentConstraint; projectId?: string }
  | { type: 'featureControl'; environment: EnvironmentConstraint }
  | { type: 'segment'; environment: EnvironmentConstraint }
  /** The users SDKs reported in an environment (forgetting one needs the environment's edit rights). */
  | { type: 'targetUser'; environment: EnvironmentConstraint }
  | { type: 'experiment'; environment: EnvironmentConstraint }
  /**
   * The change requests of an environment: drafting one (`create`) needs the rights a direct write
   * there would; `approve` and `bypass` are granted as their own actions.
   */
  | { type: 'changeRequest'; environment: EnvironmentConstraint }
  /** The user attributes a project's rules may test. */
  | { type: 'target'; projectId?: string }
  | { type: 'audit' };

/**
 * What a custom role's grant allows: writes (everyone who holds an authority may read), and on change
 * requests approving them or writing without them.
 */
export const GRANT_ACTIONS = ['create', 'update', 'delete', 'approve', 'bypass'] as const;
/** One {@link GRANT_ACTIONS} entry. */
export type GrantAction = (typeof GRANT_ACTIONS)[number];

/** What a custom role's grant applies to (docs/product.md §6, custom roles). */
export const GRANT_RESOURCES = [
  'feature',
  'featureControl',
  'segment',
  'target',
  'experiment',
  'changeRequest',
] as const;
/** One {@link GRANT_RESOURCES} entry. */
export type GrantResource = (typeof GRANT_RESOURCES)[number];

/** Which environments a grant reaches. */
export type GrantEnvironments =
  | { kind: 'all' }
  | { kind: 'nonProduction' }
  /** Environments carrying at least one of these tags (compared without case). */
  | { kind: 'tagged'; tags: readonly string[] };

/**
 * One grant of a custom role: each action on each resource, within some projects (`null`: every
 * project) and some environments. A grant only adds rights to those of the member's authority.
 */
export interface Grant {
  actions: readonly GrantAction[];
  resources: readonly GrantResource[];
  /** Project ids; `null` for every project, present and future. */
  projects: readonly string[] | null;
  environments: GrantEnvironments;
}

/**
 * The part of a user that permissions read: their authorities (unknown strings are ignored) and the
 * grants of the custom roles they hold.
 */
export interface Principal {
  authorities: readonly string[];
  grants?: readonly Grant[];
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
 * - Change requests: drafting one needs the rights a direct write in its environment would;
 *   approving one needs an organisation admin, or a production editor in a production environment;
 *   writing directly to an environment that asks for them (`bypass`) only a grant allows. No other
 *   resource is approved or bypassed.
 * - A principal with no known authority may do nothing.
 * - Beyond that, a grant of one of the principal's custom roles may allow a write (see
 *   {@link grantAllows}).
 */
export function can(principal: Principal, action: Action, resource: Resource): boolean {
  if (authorityAllows(principal, action, resource)) return true;
  // A custom role adds to a member's authority; someone without one may do nothing at all.
  return (
    rankOf(principal) >= READ_ONLY &&
    (principal.grants ?? []).some((grant) => grantAllows(grant, action, resource))
  );
}

function authorityAllows(principal: Principal, action: Action, resource: Resource): boolean {
  const rank = rankOf(principal);
  if (rank < READ_ONLY) return false;
  if (resource.type === 'organisation') return rank >= ORGANISATION_ADMIN;
  if (action === 'read') return true;
  if (action === 'manage') return rank >= ORGANISATION_ADMIN;
  if (action === 'approve' || action === 'bypass') {
    if (resource.type !== 'changeRequest' || action === 'bypass') return false;
    return (
      rank >= ORGANISATION_ADMIN ||
      (isProductionEnvironment(resource.environment) && rank >= PRODUCTION_EDITOR)
    );
  }
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
    case 'changeRequest':
      return rank >= editRankFor(resource.environment);
  }
}

const GRANTABLE: ReadonlySet<string> = new Set(GRANT_RESOURCES);

function projectOf(resource: Resource): string | undefined {
  if ('environment' in resource && resource.environment?.projectId) return resource.environment.projectId;
  return 'projectId' in resource ? resource.projectId : undefined;
}

function reachesEnvironment(scope: GrantEnvironments, environment: EnvironmentConstraint): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'nonProduction':
      return !isProductionEnvironment(environment);
    case 'tagged': {
      const wanted = new Set(scope.tags.map((tag) => tag.toLowerCase()));
      return (environment.tags ?? []).some((tag) => wanted.has(tag.toLowerCase()));
    }
  }
}

/**
 * Whether one grant allows `action` on `resource`:
 *
 * - only its actions (writes) on its resources;
 * - within its projects: a resource whose project is not known is outside any project list;
 * - within its environments. What is not done in one environment reaches them all: a feature's
 *   settings (and creating one) as an editor's would, that is with every environment or the
 *   non-production ones (a change that alters what production serves also needs rights in each
 *   production environment: `servedChangeDenial`); deleting a feature, which removes it from every
 *   environment, only with every environment; a project's targets with any environment scope.
 */
export function grantAllows(grant: Grant, action: Action, resource: Resource): boolean {
  if (!(GRANT_ACTIONS as readonly string[]).includes(action)) return false;
  if (!GRANTABLE.has(resource.type) || !grant.resources.includes(resource.type as GrantResource))
    return false;
  if (!grant.actions.includes(action as GrantAction)) return false;
  if (grant.projects !== null) {
    const project = projectOf(resource);
    if (project === undefined || !grant.projects.includes(project)) return false;
  }
  const environment = 'environment' in resource ? resource.environment : undefined;
  if (environment) return reachesEnvironment(grant.environments, environment);
  if (resource.type === 'target') return true;
  if (action === 'delete') return grant.environments.kind === 'all';
  return grant.environments.kind !== 'tagged';
}

/**
 * Whether `principal` may see an environment's server SDK key. The key downloads every flag with its
 * rules and lets an SDK register features, so only those whose built-in role may change the
 * environment's flags see it: editors for other environments, production editors for production
 * ones, organisation admins everywhere. A custom role's grants never show it, whatever they allow:
 * a grant to switch features must not become, through the key, the right to create them. The JS
 * client key is public and always shown.
 */
export function canSeeServerSdkKey(principal: Principal, environment: EnvironmentConstraint): boolean {
  return authorityAllows(principal, 'update', { type: 'featureControl', environment });
}
