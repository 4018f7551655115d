import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('starts with defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      dataDir: './data',
      databaseUrl: undefined,
      baseDomain: 'localhost',
      publicUrl: 'http://localhost:3000',
      demo: true,
      logLevel: 'info',
      passwordHashCost: 'standard',
    });
    expect(Object.values(config.uiFlags).every(Boolean)).toBe(true);
  });

  it('lists every bad variable at once', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        VEXIL_UI_FLAGS: 'nonsense=off',
      });
      expect.fail('should have thrown');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'VEXIL_UI_FLAGS'])
        expect(problems).toContain(name);
      expect(problems).toContain('unknown UI flag "nonsense"');
    }
  });

  it('turns UI flags off from VEXIL_UI_FLAGS', () => {
    const config = loadConfig({ VEXIL_UI_FLAGS: 'billing=off,experiments=false, home=on' });
    expect(config.uiFlags.billing).toBe(false);
    expect(config.uiFlags.experiments).toBe(false);
    expect(config.uiFlags.home).toBe(true);
    expect(config.uiFlags.segments).toBe(true);
  });

  it('treats empty values as unset and VEXIL_DEMO=off as off', () => {
    const config = loadConfig({
      DATABASE_URL: '',
      VEXIL_DEMO: 'off',
      PUBLIC_URL: 'https://flags.example.com/',
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.demo).toBe(false);
    expect(config.publicUrl).toBe('https://flags.example.com');
  });

  it('bounds database waits by default and takes other limits in milliseconds', () => {
    expect(loadConfig({})).toMatchObject({
      databaseConnectTimeoutMs: 5_000,
      databaseStatementTimeoutMs: 10_000,
    });
    const config = loadConfig({
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      DATABASE_STATEMENT_TIMEOUT_MS: '60000',
    });
    expect(config).toMatchObject({ databaseConnectTimeoutMs: 2_000, databaseStatementTimeoutMs: 60_000 });
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
  });

  it('takes SECRETS_KEY as 32 bytes in hex or base64, and explains a bad one', () => {
    const bytes = Buffer.alloc(32, 7);
    expect(loadConfig({}).secretsKey).toBeUndefined();
    expect(loadConfig({ SECRETS_KEY: bytes.toString('hex') }).secretsKey).toEqual(bytes);
    expect(loadConfig({ SECRETS_KEY: bytes.toString('base64') }).secretsKey).toEqual(bytes);
    expect(loadConfig({ SECRETS_KEY: bytes.toString('base64url') }).secretsKey).toEqual(bytes);
    for (const bad of ['too-short', Buffer.alloc(16).toString('hex'), Buffer.alloc(33).toString('base64')]) {
      expect(() => loadConfig({ SECRETS_KEY: bad })).toThrow(
        /SECRETS_KEY: must be 32 random bytes written as 64 hex characters or in base64/,
      );
    }
  });

  it('refuses private addresses for outgoing requests unless OUTGOING_ALLOW_PRIVATE=on', () => {
    expect(loadConfig({}).outgoingAllowPrivate).toBe(false);
    expect(loadConfig({ OUTGOING_ALLOW_PRIVATE: 'on' }).outgoingAllowPrivate).toBe(true);
    expect(() => loadConfig({ OUTGOING_ALLOW_PRIVATE: 'maybe' })).toThrow(/OUTGOING_ALLOW_PRIVATE/);
  });

  it('reads the integrations settings: allowed private hosts, the previous secrets key and the Slack app', () => {
    const config = loadConfig({
      OUTGOING_ALLOWED_HOSTS: 'jira.internal, 10.20.0.0/16',
      SECRETS_KEY_PREVIOUS: Buffer.alloc(32, 3).toString('hex'),
      SLACK_CLIENT_ID: '1.2',
      SLACK_CLIENT_SECRET: 's',
    });
    expect(config.integrations.outgoingAllowedHosts.names).toEqual([{ host: 'jira.internal', port: null }]);
    expect(config.integrations.outgoingAllowedHosts.ranges).toHaveLength(1);
    expect(config.integrations.secretsKeyPrevious).toEqual(Buffer.alloc(32, 3));
    expect(config.integrations.slack).toEqual({ clientId: '1.2', clientSecret: 's' });
    expect(config.integrations.slackApiUrl).toBe('https://slack.com/api');
    expect(config.integrations.slackOAuthUrl).toBe('https://slack.com/oauth/v2/authorize');
    expect(loadConfig({ SLACK_CLIENT_ID: '1.2' }).integrations.slack).toBeNull();
    expect(() => loadConfig({ OUTGOING_ALLOWED_HOSTS: 'ok.host, 10.0.0.0/40' })).toThrow(
      /OUTGOING_ALLOWED_HOSTS: "10.0.0.0\/40" is not a CIDR range/,
    );
  });
});
