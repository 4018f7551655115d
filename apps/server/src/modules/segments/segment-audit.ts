/**
 * What the audit log says about segments: each kind of segment entry (core's `SegmentAuditEntry`)
 * rendered to its title and markdown description, in one place. User text is escaped; keys are
 * shown as code.
 */
import { escapeMarkdown, markdownCode } from '@vexil/core';
import { AUDIT_ENTRY_ACTIONS, type SegmentAuditEntry } from '@vexil/core/audit-entries';
import type { AuditEntry } from '../audit/audit.service';

function restored(entry: { restoredFrom?: number | undefined }): string {
  return entry.restoredFrom === undefined ? '' : ` (version ${entry.restoredFrom} restored)`;
}

/** The version a create or an update made, and the one a restore brought forward. */
function versionData(entry: SegmentAuditEntry): Record<string, number> | undefined {
  if (entry.kind === 'segment.deleted') return undefined;
  const data = {
    ...(entry.version === undefined ? {} : { version: entry.version }),
    ...(entry.restoredFrom === undefined ? {} : { restoredFrom: entry.restoredFrom }),
  };
  return Object.keys(data).length > 0 ? data : undefined;
}

function text(entry: SegmentAuditEntry): Pick<AuditEntry, 'title' | 'description'> {
  const by = escapeMarkdown(entry.by);
  const environment = escapeMarkdown(entry.environment.name);
  switch (entry.kind) {
    case 'segment.created':
      return {
        title: `Segment ${entry.segment.name} created in ${entry.environment.name}`,
        description: `${by} created the segment **${escapeMarkdown(entry.segment.name)}** (${markdownCode(entry.segment.key)}) in **${environment}**.`,
      };
    case 'segment.updated':
      return {
        title: `Segment ${entry.name.to} updated in ${entry.environment.name}`,
        description: `${by} updated the segment ${markdownCode(entry.segment.key)}${restored(entry)}: name **${escapeMarkdown(entry.name.from)}** → **${escapeMarkdown(entry.name.to)}**${entry.descriptionChanged ? ', description changed' : ''}${entry.bypass ? ', bypassing the change requests this environment asks for' : ''}.`,
      };
    case 'segment.deleted':
      return {
        title: `Segment ${entry.segment.name} deleted from ${entry.environment.name}`,
        description: `${by} deleted the segment **${escapeMarkdown(entry.segment.name)}** (${markdownCode(entry.segment.key)}) from **${environment}**.`,
      };
  }
}

/** The audit entry of a segment write; one that created a version names it (`data.version`). */
export function segmentAudit(entry: SegmentAuditEntry): AuditEntry {
  const data = versionData(entry);
  return {
    action: AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'segment',
    resourceId: entry.segment.id,
    projectKey: entry.environment.projectKey,
    environmentKey: entry.environment.key,
    ...text(entry),
    ...(data ? { data } : {}),
  };
}
