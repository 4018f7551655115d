import type { Grant } from './permissions';
import type { AuditNamed as Named, ByMember } from './audit-entry-parts';
import type { AuditAction } from './schemas/audit';
import type { Rule } from './schemas/targeting';

/*
 * The kinds of audit entries of features, their controls, projects, access tokens and custom roles
 * (docs/adr/0011-audit-entries.md), as data: each module renders its own in `<module>-audit.ts`.
 * audit-entries.ts gathers them into `AuditEntryKind` and `AUDIT_ENTRY_ACTIONS`.
 */

/** A feature as its entries name it. */
type AuditFeature = Named & { id: string };

/** The settings of a feature an update may change. */
export type AuditFeatureSettings = {
  name: string;
  description: string;
  permanent: boolean;
  tags: readonly string[];
  maintainerId: string | null;
};

/** Features of a project, created from the dashboard or registered by an SDK. */
export type FeatureAuditEntry =
  | (ByMember & {
      kind: 'feature.created';
      feature: AuditFeature;
      project: Named;
      variantKeys: readonly string[];
      /** The first version of its settings. */
      version?: number | undefined;
    })
  | {
      /** Created by an SDK with the server key of `environment`, which is the entry's actor. */
      kind: 'feature.registered';
      feature: { id: string; key: string };
      environment: Named & { id: string; projectKey: string };
      variantKeys: readonly string[];
    }
  | (ByMember & {
      kind: 'feature.updated';
      feature: AuditFeature;
      project: { key: string };
      settings: { before: AuditFeatureSettings; after: AuditFeatureSettings };
      variantsAdded: readonly string[];
      /** Existing variants whose name or value changed. */
      variantsEdited: readonly string[];
      /** The keys of the linked issues, before and after. */
      issues: { before: readonly string[]; after: readonly string[] };
      /** The version of the settings it created (none when it changed nothing), and the one a restore brought forward. */
      version?: number | undefined;
      restoredFrom?: number | undefined;
      /** Written directly where change requests are asked for, by a member allowed to bypass them. */
      bypass?: boolean | undefined;
    })
  | (ByMember & { kind: 'feature.deleted'; feature: AuditFeature; project: Named })
  | (ByMember & {
      kind: 'feature.linked';
      feature: AuditFeature;
      project: { key: string };
      issueKey: string;
      /** The version of the settings the link created. */
      version?: number | undefined;
    });

/** What a control serves: its switch, off variant and rules. */
export type AuditControlState = { enabled: boolean; offVariantKey: string; rules: readonly Rule[] };

/** A feature's control in one environment. */
export type ControlAuditEntry = ByMember & {
  kind: 'feature_control.updated';
  control: { id: string };
  feature: AuditFeature;
  environment: Named;
  project: { key: string };
  /** The variants' names by key, as the rules are described with them. */
  variantNames: Readonly<Record<string, string>>;
  before: AuditControlState;
  after: AuditControlState;
  /** The off variant or the rules changed, not only the switch. */
  targetingChanged: boolean;
  /** The version the change created (none when it changed nothing), and the version a restore brought forward. */
  version?: number | undefined;
  restoredFrom?: number | undefined;
  /** The applied change request the write belongs to. */
  changeRequest?: { id: string; title: string } | undefined;
  /** Written directly to an environment that asks for change requests, by a member allowed to bypass them. */
  bypass?: boolean | undefined;
  /** Written by a schedule (docs/adr/0025-scheduler.md): which, and what it did ("ramp step 2 of 3: 50 %"). */
  scheduled?: { id: string; label: string } | undefined;
};

/** Projects of an organisation. */
export type ProjectAuditEntry =
  | (ByMember & {
      kind: 'project.created';
      project: Named & { id: string };
      /** The names of the environments it was created with. */
      environments: readonly string[];
    })
  | (ByMember & {
      kind: 'project.updated';
      project: { id: string; key: string };
      name: { from: string; to: string };
    })
  | (ByMember & {
      kind: 'project.deleted';
      project: Named & { id: string };
      /** How many environments and features were archived with it. */
      archived: { environments: number; features: number };
    });

/** A personal access token as its entries name it: `masked` shows its prefix and last four characters. */
type AuditAccessToken = { id: string; name: string; masked: string };

/** Personal access tokens of a member. */
export type AccessTokenAuditEntry =
  | (ByMember & { kind: 'access_token.created'; token: AuditAccessToken; expiresAt: Date | null })
  | (ByMember & { kind: 'access_token.deleted'; token: AuditAccessToken })
  /** The token's first use in a (UTC) day: the log's "Signed in" for tokens. */
  | (ByMember & { kind: 'access_token.used'; token: { id: string; name: string } });

/** Custom roles of an organisation; members are named as the dashboard shows them. */
export type RoleAuditEntry =
  | (ByMember & {
      kind: 'role.created';
      role: { id: string; name: string };
      grants: readonly Grant[];
      /** The organisation's project names by id, which grants are described with. */
      projectNames: ReadonlyMap<string, string>;
    })
  | (ByMember & {
      kind: 'role.updated';
      role: { id: string; name: string };
      /** Its name before, when it was renamed. */
      formerName: string | null;
      grants: { before: readonly Grant[]; after: readonly Grant[] };
      projectNames: ReadonlyMap<string, string>;
      /** The members holding it. */
      holders: readonly string[];
    })
  | (ByMember & { kind: 'role.deleted'; role: { id: string; name: string } })
  | (ByMember & {
      kind: 'role.members_changed';
      role: { id: string; name: string };
      added: readonly string[];
      removed: readonly string[];
    });

/** The kinds of this file. */
export type FlagsAuditEntry =
  FeatureAuditEntry | ControlAuditEntry | ProjectAuditEntry | AccessTokenAuditEntry | RoleAuditEntry;

/** The action each kind of this file is filed under (the audit log's Action filter). */
export const FLAGS_AUDIT_ENTRY_ACTIONS = {
  'feature.created': 'create',
  'feature.registered': 'create',
  'feature.updated': 'update',
  'feature.deleted': 'archive',
  'feature.linked': 'update',
  'feature_control.updated': 'update',
  'project.created': 'create',
  'project.updated': 'update',
  'project.deleted': 'archive',
  'access_token.created': 'create',
  'access_token.deleted': 'delete',
  'access_token.used': 'login',
  'role.created': 'create',
  'role.updated': 'update',
  'role.deleted': 'delete',
  'role.members_changed': 'update',
} as const satisfies Record<FlagsAuditEntry['kind'], AuditAction>;
