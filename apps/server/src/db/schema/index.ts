/**
 * The database schema: every table, one file per domain. drizzle-kit reads this file
 * (drizzle.config.ts) to generate migrations, and the db client types its queries with it.
 */
export * from './identity.ts';
export * from './team.ts';
export * from './tokens.ts';
export * from './projects.ts';
export * from './integrations.ts';
export * from './features.ts';
export * from './targeting.ts';
export * from './experiments.ts';
export * from './stats.ts';
export * from './audit.ts';
export * from './billing.ts';
export * from './sso.ts';
export * from './throttle.ts';
export * from './versions.ts';
export * from './queue.ts';
export * from './change-requests.ts';
export * from './schedules.ts';
export * from './guards.ts';
