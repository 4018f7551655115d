/**
 * @vexil/core: the pure domain of Vexil (schemas, permissions, keys, limits). Imports only zod.
 */
export * from './keys';
export * from './limits';
export * from './markdown';
export * from './pattern';
export * from './rules';
export * from './permissions';
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
export * from './schemas/segments';
export * from './schemas/signup';
export * from './schemas/targets';
export * from './schemas/team';
export * from './schemas/tokens';
