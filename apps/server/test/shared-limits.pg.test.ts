/**
 * Two server instances on one PostgreSQL share every throttle and limit: a guesser or a mail bomber
 * who spreads requests over instances behind a load balancer gets no more attempts than against
 * one, and an instance started afterwards still counts them (docs/architecture.md "Scale"). Runs
 * in the PostgreSQL project only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';
import { createHarness, randomIp, testConfig, type Harness, type TestApp, type TestUser } from './helpers';

let h: Harness;
let second: TestApp;
let user: TestUser;

function instance() {
  return buildApp({
    config: testConfig(),
    database: openDatabase({ kind: 'postgres', url: h.database.url!, max: 2 }),
    logger: false,
  });
}

beforeAll(async () => {
  h = await createHarness();
  expect(h.database.kind).toBe('postgres');
  second = await instance();
  await second.ready();
  user = await h.createOrganisation();
});
afterAll(async () => {
  await second?.close();
  await h?.close();
});

/** The instance each request goes to, in turn, as a round-robin balancer would send them. */
const turn = (i: number) => (i % 2 === 0 ? h.app : second);

function post(app: TestApp, url: string, payload: object, remoteAddress = randomIp()) {
  return app.inject({ method: 'POST', url, payload, remoteAddress });
}

describe('two instances on one PostgreSQL', () => {
  it('count failed logins together, and a new instance makes the guesser wait too', async () => {
    const ip = randomIp();
    const attempt = (app: TestApp, password: string) =>
      post(app, '/api/authenticate', { username: user.email, password, domain: user.domain }, ip);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attempt(turn(i), `wrong-${i}`)).statusCode);
    // Four free failures, the fifth sets a wait: the sixth is refused whichever instance it reaches.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await attempt(second, user.password)).statusCode).toBe(429);

    const restarted = await instance();
    try {
      const refused = await attempt(restarted, user.password);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await restarted.close();
    }
  });

  it('send one address 5 sign-up pins an hour between them', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await post(turn(i), '/api/v1/signup/registeremail', { email: 'pins@example.com', beta: false }))
          .statusCode,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('send one address of an organisation 5 reset links an hour between them', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await post(turn(i), '/api/account/reset_password/init', {
            email: user.email,
            domain: user.domain,
          })
        ).statusCode,
      );
    expect(statuses).toEqual([204, 204, 204, 204, 204, 429]);
  });

  it('send one address 3 lists of organisations an hour between them', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await post(turn(i), '/api/v1/account/findorganisations', { email: user.email })).statusCode,
      );
    expect(statuses).toEqual([204, 204, 204, 429]);
  });

  it('let one client address ask for 10 e-mails per 15 minutes between them', async () => {
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await post(turn(i), '/api/v1/account/findorganisations', { email: `p${i}@example.com` }, ip))
          .statusCode,
      );
    expect(statuses).toEqual([...Array<number>(10).fill(204), 429]);
  });
});
