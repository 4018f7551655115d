import type { AuditAction } from './schemas/audit';
import type { AuditNamed, ByMember } from './audit-entry-parts';
import { ORGANISATION_AUDIT_ENTRY_ACTIONS, type OrganisationAuditEntry } from './audit-entries-organisation';
import { FLAGS_AUDIT_ENTRY_ACTIONS, type FlagsAuditEntry } from './audit-entries-flags';

/*
 * What an audited write did, as data (docs/adr/0011-audit-entries.md): one kind per write, with the
 * facts its entry names. A module builds the value where the write happens and renders its title and
 * markdown description in one place of its own (`<module>-audit.ts`), so the wording of a domain
 * lives together and a payload cannot be missing a fact its text needs. The action an entry is
 * filed under follows from its kind ({@link AUDIT_ENTRY_ACTIONS}).
 */

export type { AuditNamed } from './audit-entry-parts';

/** An experiment's design as its entries describe it. */
export type AuditExperimentDesign = {
  featureName: string;
  control: string;
  variation: string;
  goalKey: string;
};

/** What an experiment's update did: the state it moved to, or only its settings. */
export type AuditExperimentChange = 'updated' | 'started' | 'restarted' | 'finished';

/** Experiments of an environment. */
export type ExperimentAuditEntry =
  | (ByMember & {
      kind: 'experiment.created';
      experiment: { id: string; name: string };
      environment: AuditNamed & { projectKey: string };
      design: AuditExperimentDesign;
      started: boolean;
    })
  | (ByMember & {
      kind: 'experiment.updated';
      experiment: { id: string; name: string };
      environment: AuditNamed & { projectKey: string };
      design: AuditExperimentDesign;
      change: AuditExperimentChange;
    })
  | (ByMember & {
      kind: 'experiment.archived';
      experiment: { id: string; name: string };
      environment: AuditNamed & { projectKey: string };
    });

/**
 * The version a write created (none when it changed nothing), and the one a restore brought forward
 * (docs/adr/0022-versions.md): the entry's `data.version` and `data.restoredFrom`.
 */
export type AuditVersioned = { version?: number | undefined; restoredFrom?: number | undefined };

/** Segments of an environment. */
export type SegmentAuditEntry =
  | (ByMember &
      AuditVersioned & {
        kind: 'segment.created';
        segment: AuditNamed & { id: string };
        environment: AuditNamed & { projectKey: string };
      })
  | (ByMember &
      AuditVersioned & {
        kind: 'segment.updated';
        segment: { id: string; key: string };
        environment: AuditNamed & { projectKey: string };
        name: { from: string; to: string };
        descriptionChanged: boolean;
        /** Written directly where change requests are asked for, by a member allowed to bypass them. */
        bypass?: boolean | undefined;
      })
  | (ByMember & {
      kind: 'segment.deleted';
      segment: AuditNamed & { id: string };
      environment: AuditNamed & { projectKey: string };
    });

/** Targets (user attributes) of a project. */
export type TargetAuditEntry = ByMember & {
  kind: 'target.created';
  target: AuditNamed & { id: string; type: string };
  project: AuditNamed;
};

/** Users an SDK reported, forgotten from the Users page. */
export type TargetUserAuditEntry = ByMember & {
  kind: 'target_user.removed';
  userKey: string;
  environment: AuditNamed & { projectKey: string };
};

/** An environment as its entries describe it. */
export type AuditEnvironment = AuditNamed & { id: string; production: boolean; local: boolean };

/** The settings of an environment an update may change, in the order its entry lists them. */
export const AUDIT_ENVIRONMENT_FIELDS = [
  'name',
  'url',
  'color',
  'local',
  'production',
  'tags',
  'sdkCanCreateFeatures',
] as const;

/** Environments of a project. */
export type EnvironmentAuditEntry =
  | (ByMember &
      AuditVersioned & {
        kind: 'environment.created';
        environment: AuditEnvironment;
        project: AuditNamed;
        /** Its targeting was copied from another environment. */
        cloned: boolean;
      })
  | (ByMember &
      AuditVersioned & {
        kind: 'environment.updated';
        environment: AuditEnvironment;
        project: AuditNamed;
        /** The settings that changed, from and to; none when it was saved as it was. */
        changes: { field: (typeof AUDIT_ENVIRONMENT_FIELDS)[number]; from: unknown; to: unknown }[];
      })
  | (ByMember & { kind: 'environment.deleted'; environment: AuditEnvironment; project: AuditNamed })
  | (ByMember & {
      kind: 'environment.key_rotated';
      environment: AuditEnvironment;
      project: AuditNamed;
      sdk: 'server' | 'js';
    });

/** Every kind of audit entry described as data so far; the other writes still build their text inline. */
export type AuditEntryKind =
  | ExperimentAuditEntry
  | SegmentAuditEntry
  | TargetAuditEntry
  | TargetUserAuditEntry
  | EnvironmentAuditEntry
  | OrganisationAuditEntry
  | FlagsAuditEntry;

/** The action each kind of entry is filed under (the audit log's Action filter). */
export const AUDIT_ENTRY_ACTIONS = {
  ...FLAGS_AUDIT_ENTRY_ACTIONS,
  ...ORGANISATION_AUDIT_ENTRY_ACTIONS,
  'experiment.created': 'create',
  'experiment.updated': 'update',
  'experiment.archived': 'delete',
  'segment.created': 'create',
  'segment.updated': 'update',
  'segment.deleted': 'delete',
  'target.created': 'create',
  'target_user.removed': 'delete',
  'environment.created': 'create',
  'environment.updated': 'update',
  'environment.deleted': 'archive',
  'environment.key_rotated': 'update',
} as const satisfies Record<AuditEntryKind['kind'], AuditAction>;

/** The entry of one kind: `AuditEntryOf<'segment.created'>`. */
export type AuditEntryOf<K extends AuditEntryKind['kind']> = Extract<AuditEntryKind, { kind: K }>;
