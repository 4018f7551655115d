import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../errors';
import { isConnectionLost, isDatabaseUnavailable, isStorageUnwritable } from './errors';

function withCode(code: string, message = 'database error') {
  return Object.assign(new Error(message), { code });
}
/** As a repository sees it: the driver's error inside Drizzle's. */
function failedQuery(cause: unknown) {
  return new DrizzleQueryError('select 1', [], cause as Error);
}

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'a terminated backend (57P01)',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['a crashed server (57P02)', withCode('57P02')],
    ['a server still starting (57P03)', withCode('57P03', 'the database system is starting up')],
    ['too many connections (53300)', withCode('53300')],
    ['a connection exception (08006)', withCode('08006')],
    ['a statement timeout (57014)', withCode('57014', 'canceling statement due to statement timeout')],
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a connection timeout', new Error('Connection terminated due to connection timeout')],
    ['a full pool', new Error('timeout exceeded when trying to connect')],
    ['a query timeout', new Error('Query read timeout')],
    ['a broken client', new Error('Client has encountered a connection error and is not queryable')],
  ])('recognises %s, bare or inside Drizzle’s error', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(failedQuery(error))).toBe(true);
    expect(isDatabaseUnavailable(new Error('rebuild failed', { cause: failedQuery(error) }))).toBe(true);
  });

  it.each([
    ['a unique violation', failedQuery(withCode('23505'))],
    ['a foreign-key violation', failedQuery(withCode('23503'))],
    ['a missing table', failedQuery(withCode('42P01'))],
    ['a bug', new TypeError('x is undefined')],
    ['an application error', new NotFoundError('project', 'web')],
    ['nothing at all', undefined],
  ])('leaves %s alone', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('isConnectionLost', () => {
  it.each([
    [
      'a terminated backend (57P01)',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['a server shutting down (57P02)', withCode('57P02')],
    ['a reset socket', withCode('ECONNRESET')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    [
      'a client whose connection already failed',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
  ])('says a transaction may run again after %s', (_name, error) => {
    expect(isConnectionLost(failedQuery(error))).toBe(true);
  });

  it.each([
    ['a statement timeout (57014)', withCode('57014')],
    ['a query timeout', new Error('Query read timeout')],
    ['a full pool', new Error('timeout exceeded when trying to connect')],
    ['a refused connection', withCode('ECONNREFUSED')],
    ['too many connections (53300)', withCode('53300')],
    ['a unique violation', withCode('23505')],
  ])('not after %s: trying again would wait or fail the same way', (_name, error) => {
    expect(isConnectionLost(failedQuery(error))).toBe(false);
  });
});

describe('isStorageUnwritable', () => {
  it.each([
    // As the embedded database reports a full disk.
    [
      'a full disk (53100)',
      withCode('53100', 'could not extend file "base/5/17610": No space left on device'),
    ],
    ['a failed write to a file (58030)', withCode('58030', 'could not write to file "pg_wal/xlogtemp.1"')],
    ['a read-only database (25006)', withCode('25006', 'cannot execute INSERT in a read-only transaction')],
    ['the file system being full', withCode('ENOSPC', 'ENOSPC: no space left on device, write')],
    ['a read-only file system', new Error('could not create file "base/5/1": Read-only file system')],
  ])('recognises %s, inside Drizzle’s error', (_name, error) => {
    expect(isStorageUnwritable(failedQuery(error))).toBe(true);
    expect(isDatabaseUnavailable(failedQuery(error))).toBe(false);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a terminated backend', withCode('57P01')],
    ['a bad value', withCode('22P02')],
  ])('not %s', (_name, error) => {
    expect(isStorageUnwritable(failedQuery(error))).toBe(false);
  });
});
