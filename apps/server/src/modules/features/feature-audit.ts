/**
 * What the audit log says about features: titles and Markdown descriptions, in one place so the
 * wording stays consistent whichever path (dashboard or SDK) made the change. User text is escaped;
 * keys are shown as code.
 */
import { escapeMarkdown, markdownCode } from '@vexil/core';
import type { AuditEntry } from '../audit/audit.service';
import type { FeatureRecord } from './features.types';

type Named = { name: string; key: string };

function list(values: readonly string[]): string {
  return values.length ? values.map(markdownCode).join(', ') : '(none)';
}

function feature(row: Named): string {
  return `**${escapeMarkdown(row.name)}** (${markdownCode(row.key)})`;
}

export function featureCreated(actor: string, row: Named, project: { name: string }, variantKeys: string[]) {
  return {
    title: `Feature ${row.name} created in ${project.name}`,
    description: `${escapeMarkdown(actor)} created the feature ${feature(row)} with the variants ${list(variantKeys)}. It is off in every environment.`,
  } satisfies Pick<AuditEntry, 'title' | 'description'>;
}

type Settings = Pick<FeatureRecord, 'name' | 'description' | 'permanent' | 'tags' | 'maintainerId'>;

/** The settings an update may change, before and after. */
export type SettingsChange = {
  before: Settings;
  after: Settings;
  variantsAdded: string[];
  variantsEdited: string[];
  issuesBefore: string[];
  issuesAfter: string[];
};

export function featureUpdated(actor: string, row: Named, change: SettingsChange) {
  const { before, after } = change;
  const lines = [
    before.name !== after.name ? `- name: ${markdownCode(before.name)} → ${markdownCode(after.name)}` : null,
    before.description !== after.description ? '- description changed' : null,
    before.permanent !== after.permanent ? `- permanent: ${markdownCode(String(after.permanent))}` : null,
    JSON.stringify(before.tags) !== JSON.stringify(after.tags)
      ? `- tags: ${list(before.tags)} → ${list(after.tags)}`
      : null,
    before.maintainerId !== after.maintainerId ? '- maintainer changed' : null,
    change.variantsAdded.length ? `- variants added: ${list(change.variantsAdded)}` : null,
    change.variantsEdited.length ? `- variants changed: ${list(change.variantsEdited)}` : null,
    JSON.stringify(change.issuesBefore) !== JSON.stringify(change.issuesAfter)
      ? `- issues: ${list(change.issuesBefore)} → ${list(change.issuesAfter)}`
      : null,
  ].filter((line): line is string => line !== null);
  return {
    title: `Feature ${after.name} updated`,
    description: `${escapeMarkdown(actor)} updated the settings of ${feature(row)}${lines.length ? `:\n\n${lines.join('\n')}` : '.'}`,
  };
}

export function featureDeleted(actor: string, row: Named, project: { name: string }) {
  return {
    title: `Feature ${row.name} deleted`,
    description: `${escapeMarkdown(actor)} deleted the feature ${feature(row)} from **${escapeMarkdown(project.name)}**. SDKs no longer receive it.`,
  };
}

export function featureLinked(actor: string, row: Named, issueKey: string) {
  return {
    title: `Feature ${row.name} linked to ${issueKey}`,
    description: `${escapeMarkdown(actor)} linked the issue ${markdownCode(issueKey)} to ${feature(row)}.`,
  };
}

export function featureRegisteredBySdk(environment: Named, featureKey: string, variantKeys: string[]) {
  const sdk = `The server SDK key of the environment ${feature(environment)}`;
  return {
    title: `Feature ${featureKey} registered by the SDK of ${environment.name}`,
    description: `${sdk} registered the feature ${markdownCode(featureKey)} with the variants ${list(variantKeys)}. It is off in every environment.`,
  };
}
