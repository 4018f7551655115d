import {
  can,
  isRequestChange,
  type ControlPatch,
  type ControlSnapshot,
  type ScheduleSpec,
} from '@vexil/core';
import type { Executor } from '../../db/client';
import type { Principal } from '../auth/auth.service';
import type { SchedulePorts } from './schedule-ports';
import type { NewScheduleEvent, ScheduleChanges, ScheduleInScope } from './schedules.repository';

/*
 * What every step of a schedule shares (docs/adr/0025-scheduler.md): the `Move` a step answers — the
 * schedule's new fields, the history entries, what to announce once the transaction commits — and the
 * schedule's writes of its control, made for its author through the controls module's one write path
 * (a version with source `schedule`).
 */

/** What one move of a schedule changes. */
export type Move = {
  changes: ScheduleChanges;
  events: Omit<NewScheduleEvent, 'organisationId' | 'scheduleId'>[];
  after: (() => void)[];
  /** Tell the author (suspended, paused by failures or its cut-off, waiting for approval). */
  notify?: { subject: string; sentence: string } | undefined;
};

/** A refusal that is the schedule's to report (suspended), not a failure to retry. */
export class Suspension extends Error {}

/** What a control serves, as a version keeps it. */
export const snapshotOf = (view: {
  enabled: boolean;
  offVariantKey: string;
  rules: ControlSnapshot['rules'];
}): ControlSnapshot => ({
  enabled: view.enabled,
  offVariantKey: view.offVariantKey,
  rules: view.rules,
});

export type Ramp = Extract<ScheduleSpec, { kind: 'ramp' }>;

/** "Ramp step 2 of 3: blue to 50 %". */
export function stepLabel(spec: Ramp, index: number): string {
  return `Ramp step ${index + 1} of ${spec.steps.length}: ${spec.variantKey} to ${spec.steps[index]!.coverage} %`;
}

/** What a patch does, in words ("Turn on", "Turn off and change the rules"). */
export function patchLabel(patch: ControlPatch): string {
  const parts = [
    patch.enabled === undefined ? null : patch.enabled ? 'Turn on' : 'Turn off',
    patch.rules === undefined ? null : 'change the rules',
    patch.offVariantKey === undefined ? null : `serve ${patch.offVariantKey} when off`,
  ].filter((part): part is string => part !== null);
  const text = parts.join(' and ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type ScheduleWrites = ReturnType<typeof createScheduleWrites>;

/** The schedule's author, its control, and its writes of the control. */
export function createScheduleWrites(ports: SchedulePorts) {
  const { controls, versions } = ports;

  /** The schedule's author as a principal with their rights now; suspends when they left or lost them. */
  async function authorOf(tx: Executor, found: ScheduleInScope): Promise<Principal> {
    // A change request applied when it falls due is the protected path itself: its own rules decide.
    const request = found.schedule.spec.kind === 'once' && isRequestChange(found.schedule.spec.change);
    const { schedule, environment, project } = found;
    const author = schedule.authorId
      ? await ports.member(tx, schedule.organisationId, schedule.authorId)
      : null;
    if (!author)
      throw new Suspension(`${schedule.authorName}, who made this schedule, is no longer a member.`);
    const principal: Principal = {
      kind: 'session',
      sessionId: `schedule:${schedule.id}`,
      userId: author.id,
      organisationId: schedule.organisationId,
      organisationDomain: author.organisationDomain,
      email: author.email,
      authorities: author.authorities,
      grants: author.grants,
    };
    const where = { production: environment.production, tags: environment.tags, projectId: project.id };
    if (request) return principal;
    if (!can(principal, 'update', { type: 'featureControl', environment: where }))
      throw new Suspension(`${author.email} may no longer change targeting in ${environment.name}.`);
    // Made by applying an approved change request: that request was its approval.
    if (
      !schedule.bypass &&
      !schedule.changeRequestId &&
      (await ports.isProtected(tx, schedule.organisationId, environment.id))
    )
      throw new Suspension(
        `${environment.name} now asks for change requests: schedule an approved change request instead.`,
      );
    return principal;
  }

  /** The control locked, or a suspension when its feature or environment is gone. */
  async function controlOf(tx: Executor, found: ScheduleInScope) {
    const control = await controls.find(tx, found.schedule.organisationId, found.schedule.controlId, {
      forUpdate: true,
    });
    if (!control) throw new Suspension('The feature or the environment was archived or deleted.');
    return control;
  }

  /** Who changed the control since the schedule's base, for a suspension's reason. */
  async function changedBy(tx: Executor, found: ScheduleInScope): Promise<string> {
    const latest = await versions.latest(tx, {
      organisationId: found.schedule.organisationId,
      resourceType: 'feature_control',
      resourceId: found.schedule.controlId,
    });
    const who = latest?.authorName ?? 'Someone';
    return latest ? `${who} (version ${latest.number})` : who;
  }

  /** A write of the control by the schedule: the new base, and the version it made. */
  async function write(
    tx: Executor,
    found: ScheduleInScope,
    principal: Principal,
    label: string,
    next: (before: ControlSnapshot) => ControlSnapshot,
    move: Move,
  ): Promise<number | null> {
    const { schedule } = found;
    const written = await controls.write(
      tx,
      principal,
      schedule.controlId,
      {
        id: schedule.id,
        label: schedule.changeRequestId ? `${label}, approved through a change request` : label,
        bypass: schedule.bypass,
        comment: schedule.spec.comment ?? null,
      },
      (before) => next(snapshotOf(before)),
    );
    move.after.push(written.afterCommit);
    const version =
      written.version ??
      (
        await versions.latest(tx, {
          organisationId: schedule.organisationId,
          resourceType: 'feature_control',
          resourceId: schedule.controlId,
        })
      )?.number ??
      null;
    Object.assign(move.changes, { baseVersion: version, baseState: snapshotOf(written.view) });
    return version;
  }

  return { authorOf, controlOf, changedBy, write };
}

/** What a schedule does, in one sentence (a change request's change). */
export function scheduleSummary(spec: ScheduleSpec): string {
  if (spec.kind === 'ramp') {
    const last = spec.steps.at(-1)!.coverage;
    const steps = spec.steps.length === 1 ? '1 step' : `${spec.steps.length} steps`;
    return `Ramp ${spec.variantKey} in rule ${spec.ruleIndex + 1} to ${last} % in ${steps}`;
  }
  if (spec.kind === 'recurring')
    return `${patchLabel(spec.change)} at every “${spec.cron}” (${spec.timeZone})`;
  // The time as UTC, the same for every reader whatever their zone: "2026-12-10 08:00 UTC".
  const at = `${new Date(spec.at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return 'changeRequestId' in spec.change
    ? `Apply a change request at ${at}`
    : `${patchLabel(spec.change)} at ${at}`;
}
