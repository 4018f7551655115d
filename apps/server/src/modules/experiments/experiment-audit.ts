/**
 * What the audit log says about experiments: each kind of experiment entry (core's
 * `ExperimentAuditEntry`) rendered to its title and markdown description, in one place. User text
 * is escaped; keys are shown as code.
 */
import { escapeMarkdown, markdownCode } from '@vexil/core';
import {
  AUDIT_ENTRY_ACTIONS,
  type AuditExperimentDesign,
  type ExperimentAuditEntry,
} from '@vexil/core/audit-entries';
import type { AuditEntry } from '../audit/audit.service';

function design(of: AuditExperimentDesign): string {
  return `**${escapeMarkdown(of.featureName)}**: ${markdownCode(of.control)} against ${markdownCode(of.variation)}, goal ${markdownCode(of.goalKey)}`;
}

function text(entry: ExperimentAuditEntry): Pick<AuditEntry, 'title' | 'description'> {
  const by = escapeMarkdown(entry.by);
  const name = entry.experiment.name;
  const where = entry.environment.name;
  const what = `the experiment **${escapeMarkdown(name)}** in **${escapeMarkdown(where)}**`;
  switch (entry.kind) {
    case 'experiment.created':
      return {
        title: `Experiment ${name} created in ${where}`,
        description: `${by} created ${what}: ${design(entry.design)}${entry.started ? ', and started it' : ''}.`,
      };
    case 'experiment.updated':
      return {
        title: `Experiment ${name} ${entry.change} in ${where}`,
        description: `${by} ${entry.change} ${what}: ${design(entry.design)}.`,
      };
    case 'experiment.archived':
      return { title: `Experiment ${name} archived in ${where}`, description: `${by} archived ${what}.` };
  }
}

/** The audit entry of an experiment write. */
export function experimentAudit(entry: ExperimentAuditEntry): AuditEntry {
  return {
    action: AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'experiment',
    resourceId: entry.experiment.id,
    projectKey: entry.environment.projectKey,
    environmentKey: entry.environment.key,
    ...text(entry),
  };
}
