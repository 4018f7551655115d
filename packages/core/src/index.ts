/**
 * @vexil/core: the pure domain of Vexil (schemas, permissions, keys, limits, evaluation, version
 * diffs). No I/O; imports only zod, re2js (linear-time patterns), @noble/hashes (sha1 bucketing) and
 * fast-json-patch (the JSON Patch between two versions).
 */
export * from './keys';
export * from './evaluate/index';
export * from './limits';
export * from './messages';
export * from './time';
export * from './stats';
export * from './live';
export * from './bearer';
export * from './plan-change';
export * from './markdown';
export * from './pattern';
export * from './rules';
export * from './splits';
export * from './scope';
export * from './permissions';
export * from './denials';
export * from './errors';
export * from './concurrent-edits';
export * from './schemas/account';
export * from './schemas/audit';
export * from './schemas/auth';
export * from './schemas/billing';
export * from './schemas/common';
export * from './schemas/environments';
export * from './schemas/experiments';
export * from './schemas/features';
export * from './schemas/integrations';
export * from './schemas/projects';
export * from './schemas/roles';
export * from './schemas/segments';
export * from './schemas/signup';
export * from './schemas/sso';
export * from './schemas/targets';
export * from './schemas/team';
export * from './schemas/team-members';
export * from './schemas/tokens';
export * from './schemas/versions';
export * from './versions/index';
export * from './schemas/change-requests';
export * from './change-requests/index';
export * from './schemas/schedules';
export * from './schemas/guards';
export * from './schedules/index';
