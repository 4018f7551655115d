import { DrizzleQueryError, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { organisations } from './db/schema/index';
import { serializeError } from './logger';
import { randomIp, testConfig } from '../test/helpers';
import { captureLogs } from '../test/logs';
import { openTestDatabase, type TestDatabase } from '../test/test-database';

const EMAIL = 'jane.doe@example.com';

/** A PostgreSQL error as node-postgres reports it: `detail` quotes the row's values. */
function uniqueViolation() {
  return Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
    severity: 'ERROR',
    code: '23505',
    detail: `Key (email)=(${EMAIL}) already exists.`,
    constraint: 'users_email_key',
  });
}

describe('serializeError', () => {
  it('logs the failed statement and the error, never the parameter values', () => {
    const error = new DrizzleQueryError(
      'insert into "users" ("email") values ($1)',
      [EMAIL],
      uniqueViolation(),
    );
    expect(error.message).toContain(EMAIL); // what Drizzle would have logged
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain(EMAIL);
    expect(serializeError(error)).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query: insert into "users" ("email") values ($1)\nparams: [redacted]',
      query: 'insert into "users" ("email") values ($1)',
      cause: {
        code: '23505',
        constraint: 'users_email_key',
        message: expect.stringContaining('duplicate key'),
      },
    });
  });

  it('strips parameters from every error of the cause chain, stacks included', () => {
    const inner = new DrizzleQueryError('select 1 where $1 = $1', [EMAIL], new Error('Query read timeout'));
    const outer = new Error('rebuild failed', { cause: inner });
    const serialized = serializeError(outer) as unknown as {
      cause: { stack: string; cause: { message: string } };
    };
    expect(JSON.stringify(serialized)).not.toContain(EMAIL);
    expect(serialized.cause.stack).toMatch(/\n\s+at /);
    expect(serialized.cause.cause.message).toBe('Query read timeout');
  });

  it('keeps no object fields, such as a connection', () => {
    const error = Object.assign(new Error('Connection terminated unexpectedly'), {
      client: { password: 'secret' },
    });
    expect(JSON.stringify(serializeError(error))).not.toContain('secret');
  });
});

describe('failed queries in the request log', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('name the statement but not the e-mail address it was given', async () => {
    const logs = captureLogs('info');
    const app = await buildApp({ config: testConfig(), database, logger: logs.logger });
    await app.ready();
    await database.db.insert(organisations).values({ name: 'Acme', domain: 'acme' });
    // The sign-in's look-up of the user by e-mail address now fails.
    await database.db.execute(sql`alter table users rename to users_elsewhere`);
    const res = await app.inject({
      method: 'POST',
      url: '/api/authenticate',
      remoteAddress: randomIp(),
      payload: { username: EMAIL, password: 'a-password', domain: 'acme', rememberMe: false },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    expect(logs.raw()).toContain('Failed query: ');
    expect(logs.raw()).not.toContain(EMAIL);
    expect(logs.raw()).toContain('params: [redacted]');
    await app.close();
  });
});
