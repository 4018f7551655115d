/**
 * Every "you may not" of the product, worded once: the server refuses with these messages and the
 * dashboard explains disabled controls with the same ones. `denialOf` answers why `can` says no.
 */
import {
  can,
  hasProductionEditRights,
  isProductionEnvironment,
  type Action,
  type EnvironmentConstraint,
  type Principal,
  type Resource,
} from './permissions';

/** Why an action is refused: the message users read and its code. */
export type Denial = { code: 'forbidden' | 'production_rights_required'; message: string };

export const DENIAL_MESSAGES = {
  administration: 'Only organisation admins may manage projects.',
  featureCreate: 'You do not have permission to create features.',
  featureUpdate: 'You do not have permission to change this feature.',
  featureDelete: 'You do not have permission to delete this feature.',
  featureDeleteProduction: 'Only a production editor can delete a feature.',
  featureVariantsProduction:
    'Only a production editor can change the variants of a feature that a production environment serves.',
  controlUpdate: 'You do not have permission to change this feature.',
  controlUpdateProduction: 'Only a production editor can change a feature in a production environment.',
  targetCreate: 'You do not have permission to create targets.',
  targetUserDelete: 'You do not have permission to remove users in this environment.',
  targetUserDeleteProduction: 'Only a production editor can remove users in a production environment.',
  auditRead: 'You do not have permission to read the audit log.',
  changeRequestCreate: 'You do not have permission to change this environment.',
  changeRequestApprove: 'You cannot review change requests of this environment.',
  changeRequestBypass: 'This environment asks for a change request; you may not change it directly.',
  generic: 'You do not have permission to do this.',
} as const;

const SEGMENT_VERBS: Partial<Record<Action, string>> = {
  create: 'create',
  update: 'update',
  delete: 'delete',
};

function forbidden(message: string): Denial {
  return { code: 'forbidden', message };
}

function productionOnly(message: string): Denial {
  return { code: 'production_rights_required', message };
}

/**
 * Whether `principal` would be allowed the same action outside production: then the refusal is
 * about production rights, and says so; otherwise the role does not allow it at all.
 */
function allowedOutsideProduction(principal: Principal, action: Action, resource: Resource): boolean {
  if (!('environment' in resource) || !resource.environment) return false;
  if (!isProductionEnvironment(resource.environment)) return false;
  const elsewhere: EnvironmentConstraint = { production: false };
  if (resource.environment.projectId !== undefined) elsewhere.projectId = resource.environment.projectId;
  return can(principal, action, { ...resource, environment: elsewhere } as Resource);
}

/** The project of a feature resource, when the caller named it. */
function scopeOf(resource: Extract<Resource, { type: 'feature' }>): { projectId?: string } {
  const projectId = resource.projectId ?? resource.environment?.projectId;
  return projectId === undefined ? {} : { projectId };
}

/** Why `principal` may not perform `action` on `resource`, or `null` when it may. */
export function denialOf(principal: Principal, action: Action, resource: Resource): Denial | null {
  if (can(principal, action, resource)) return null;
  const production = allowedOutsideProduction(principal, action, resource);
  switch (resource.type) {
    case 'organisation':
    case 'project':
    case 'environment':
      return forbidden(DENIAL_MESSAGES.administration);
    case 'feature':
      if (action === 'create') return forbidden(DENIAL_MESSAGES.featureCreate);
      if (action === 'delete')
        return can(principal, 'update', { type: 'feature', ...scopeOf(resource) })
          ? productionOnly(DENIAL_MESSAGES.featureDeleteProduction)
          : forbidden(DENIAL_MESSAGES.featureDelete);
      return forbidden(DENIAL_MESSAGES.featureUpdate);
    case 'featureControl':
      return production
        ? productionOnly(DENIAL_MESSAGES.controlUpdateProduction)
        : forbidden(DENIAL_MESSAGES.controlUpdate);
    case 'targetUser':
      return production
        ? productionOnly(DENIAL_MESSAGES.targetUserDeleteProduction)
        : forbidden(DENIAL_MESSAGES.targetUserDelete);
    case 'segment': {
      const verb = SEGMENT_VERBS[action] ?? 'change';
      return production
        ? productionOnly(`Only a production editor can ${verb} segments in a production environment.`)
        : forbidden(`You do not have permission to ${verb} segments.`);
    }
    case 'target':
      return forbidden(action === 'create' ? DENIAL_MESSAGES.targetCreate : DENIAL_MESSAGES.generic);
    case 'audit':
      return forbidden(DENIAL_MESSAGES.auditRead);
    case 'experiment':
      return production
        ? productionOnly('Only a production editor can change experiments in a production environment.')
        : forbidden('You do not have permission to change experiments.');
    case 'changeRequest':
      if (action === 'approve') return forbidden(DENIAL_MESSAGES.changeRequestApprove);
      if (action === 'bypass') return forbidden(DENIAL_MESSAGES.changeRequestBypass);
      return production
        ? productionOnly(DENIAL_MESSAGES.controlUpdateProduction)
        : forbidden(DENIAL_MESSAGES.changeRequestCreate);
  }
}

/**
 * Why `principal` may not change what every environment of a project serves (a feature's
 * variants: keys, names, values, order), or `null` when it may: update rights on a feature in each
 * of `environments`, so production rights when one of them is production.
 */
export function servedChangeDenial(
  principal: Principal,
  environments: readonly EnvironmentConstraint[],
): Denial | null {
  if (environments.every((environment) => can(principal, 'update', { type: 'feature', environment })))
    return null;
  const projectId = environments.find((environment) => environment.projectId)?.projectId;
  const feature =
    projectId === undefined ? { type: 'feature' as const } : { type: 'feature' as const, projectId };
  return hasProductionEditRights(principal) || !can(principal, 'update', feature)
    ? forbidden(DENIAL_MESSAGES.featureUpdate)
    : productionOnly(DENIAL_MESSAGES.featureVariantsProduction);
}
