import { z } from 'zod';
import { UI_FLAGS, type UiFlag } from '@vexil/core';
import { parseAllowedHosts, type AllowedHosts } from './lib/outgoing-url';
import { DEFAULT_CATALOGUE, readCatalogueFile, type BillingCatalogue } from './plans/catalogue';

const onOff = z
  .enum(['on', 'off', 'true', 'false', '1', '0'], { message: 'must be on or off' })
  .transform((v) => v === 'on' || v === 'true' || v === '1');

const uiFlagOverrides = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const flags = Object.fromEntries(UI_FLAGS.map((f) => [f, true])) as Record<UiFlag, boolean>;
    for (const part of value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [name, setting] = part.split('=').map((s) => s.trim());
      if (!name || !(UI_FLAGS as readonly string[]).includes(name)) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown UI flag "${name ?? ''}" (known: ${UI_FLAGS.join(', ')})`,
        });
        continue;
      }
      const parsed = onOff.safeParse(setting ?? 'on');
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: `flag "${name}" must be on or off` });
        continue;
      }
      flags[name as UiFlag] = parsed.data;
    }
    return flags;
  });

/**
 * SECRETS_KEY: the 32-byte key that encrypts secrets at rest (lib/secret-box.ts), as 64 hex characters
 * or base64 (standard or URL-safe).
 */
const secretsKey = z.string().transform((value, ctx) => {
  const text = value.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(text)
      ? Buffer.from(text, 'base64')
      : null;
  if (!bytes || bytes.length !== 32) {
    ctx.addIssue({
      code: 'custom',
      message:
        'must be 32 random bytes written as 64 hex characters or in base64 (make one with `openssl rand -base64 32`)',
    });
    return z.NEVER;
  }
  return bytes;
});

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  BASE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'must be a host name such as vexil.example.com')
    .default('localhost'),
  PUBLIC_URL: z.url({ message: 'must be an absolute URL such as https://vexil.example.com' }).optional(),
  VEXIL_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  VEXIL_DEMO: onOff.default(true),
  VEXIL_UI_FLAGS: uiFlagOverrides,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Vexil <no-reply@vexil.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PASSWORD_HASH_COST: z.enum(['standard', 'test']).default('standard'),
  TRUST_PROXY: onOff.default(false),
  WEB_DIST: z.string().optional(),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  SECRETS_KEY: secretsKey.optional(),
  OUTGOING_ALLOW_PRIVATE: onOff.default(false),
  SECRETS_KEY_PREVIOUS: secretsKey.optional(),
  OUTGOING_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const { hosts, problems } = parseAllowedHosts(value);
      for (const problem of problems) ctx.addIssue({ code: 'custom', message: problem });
      return hosts;
    }),
  SLACK_CLIENT_ID: z.string().trim().min(1).optional(),
  SLACK_CLIENT_SECRET: z.string().trim().min(1).optional(),
  SLACK_API_URL: z.url({ message: 'must be an absolute URL such as https://slack.com/api' }).optional(),
  SLACK_OAUTH_URL: z
    .url({ message: 'must be an absolute URL such as https://slack.com/oauth/v2/authorize' })
    .optional(),
  BILLING_PROVIDER: z.enum(['local', 'stripe'], { message: 'must be local or stripe' }).default('local'),
  BILLING_PLANS_FILE: z
    .string()
    .transform((file, ctx) => {
      const read = readCatalogueFile(file);
      for (const problem of read.problems) ctx.addIssue({ code: 'custom', message: problem });
      return read.catalogue ?? z.NEVER;
    })
    .optional(),
  BILLING_TRIAL_DAYS: z.coerce
    .number({ message: 'must be a number of days' })
    .int('must be a whole number of days')
    .min(0, 'must be 0 (no trial) or more')
    .max(365, 'must be at most 365')
    .default(14),
  BILLING_SALES_CONTACT: z
    .string()
    .trim()
    .transform((value, ctx) => {
      const url = salesContactUrl(value);
      if (url === null)
        ctx.addIssue({
          code: 'custom',
          message: 'must be an e-mail address, a mailto: address or an http(s):// address',
        });
      return url ?? z.NEVER;
    })
    .optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(
      /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/,
      'must be a Stripe secret or restricted key (sk_live_…, sk_test_…)',
    )
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_API_URL: z.url({ message: 'must be an absolute URL such as http://127.0.0.1:12111' }).optional(),
});

/**
 * BILLING_SALES_CONTACT as a link: an e-mail address becomes a mailto: with a subject; mailto: and
 * http(s) addresses are kept. Null for anything else.
 */
function salesContactUrl(value: string): string | null {
  if (/^[^\s@:/]+@[^\s@/]+\.[^\s@/]+$/.test(value))
    return `mailto:${value}?subject=${encodeURIComponent('Vexil plans')}`;
  try {
    const url = new URL(value);
    if (url.protocol === 'mailto:' && url.pathname.includes('@')) return url.href;
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.hostname) return url.href;
  } catch {
    // Not a URL.
  }
  return null;
}

/** Variables a setting requires, listed with the other problems so one start shows them all. */
function missingTogether(env: Record<string, string | undefined>): string[] {
  if (env.BILLING_PROVIDER !== 'stripe') return [];
  return (['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const)
    .filter((name) => !env[name])
    .map((name) => `${name}: is required when BILLING_PROVIDER=stripe`);
}

/** Billing (docs/adr/0016-billing-providers.md). */
export type BillingConfig = {
  /** Where plans are sold: `local` (plans from configuration, no payments) or `stripe`. */
  provider: 'local' | 'stripe';
  /** The plans of the local provider, the Free plan and the trial's plan (BILLING_PLANS_FILE). */
  catalogue: BillingCatalogue;
  /** Days of the trial a new organisation starts with; 0 starts it on the Free plan. */
  trialDays: number;
  /**
   * BILLING_SALES_CONTACT: where "Contact us" leads (the Enterprise plan, a refused change), a mailto:
   * or http(s) address; null hides the Enterprise card and the button.
   */
  salesContact: string | null;
  /** Set exactly when `provider` is `stripe`. */
  stripe: {
    secretKey: string;
    webhookSecret: string;
    /** Tests point the client at a stand-in server; unset, Stripe's own API. */
    apiUrl: string | undefined;
  } | null;
};

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  baseDomain: string;
  publicUrl: string;
  adminPassword: string | undefined;
  demo: boolean;
  uiFlags: Record<UiFlag, boolean>;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  passwordHashCost: 'standard' | 'test';
  trustProxy: boolean;
  webDist: string | undefined;
  /** PostgreSQL only (docs/adr/0007-database-faults-and-timeouts.md). */
  databaseConnectTimeoutMs: number;
  databaseStatementTimeoutMs: number;
  /**
   * The key secrets are encrypted with at rest (lib/secret-box.ts); unset, one is generated into
   * `${dataDir}/secrets.key` on first use.
   */
  secretsKey: Buffer | undefined;
  /**
   * Whether the server may fetch URLs that resolve to loopback, private, link-local and other
   * non-public addresses on users' behalf (lib/outgoing-url.ts): off on the internet.
   */
  outgoingAllowPrivate: boolean;
  billing: BillingConfig;
  /** Integrations (docs/adr/0017-integrations-and-outgoing-requests.md). */
  integrations: IntegrationsConfig;
};

/** The previous secrets key, outgoing-request allowances and the chat service's app. */
export type IntegrationsConfig = {
  /** SECRETS_KEY_PREVIOUS: still decrypts during a key rotation; values are re-encrypted at start. */
  secretsKeyPrevious: Buffer | undefined;
  /** OUTGOING_ALLOWED_HOSTS: private hosts an operator allows (a self-hosted issue tracker). */
  outgoingAllowedHosts: AllowedHosts;
  /** The Slack app; null when SLACK_CLIENT_ID or SLACK_CLIENT_SECRET is unset (Slack cannot be added). */
  slack: { clientId: string; clientSecret: string } | null;
  /** Slack's Web API (oauth.v2.access) and authorisation page; tests point them at a stand-in. */
  slackApiUrl: string;
  slackOAuthUrl: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once; lists every bad variable instead of stopping at the first. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", as a blank line in an .env file would.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  const missing = missingTogether(cleaned);
  if (!parsed.success || missing.length) {
    const issues = parsed.success ? [] : parsed.error.issues;
    throw new ConfigError([...issues.map((i) => `${i.path.join('.')}: ${i.message}`), ...missing]);
  }
  const e = parsed.data;
  const billing = billingConfig(e);
  return {
    nodeEnv: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    baseDomain: e.BASE_DOMAIN.toLowerCase(),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    adminPassword: e.VEXIL_ADMIN_PASSWORD,
    demo: e.VEXIL_DEMO,
    uiFlags: e.VEXIL_UI_FLAGS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    passwordHashCost: e.PASSWORD_HASH_COST,
    trustProxy: e.TRUST_PROXY,
    webDist: e.WEB_DIST,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    secretsKey: e.SECRETS_KEY,
    outgoingAllowPrivate: e.OUTGOING_ALLOW_PRIVATE,
    billing,
    integrations: {
      secretsKeyPrevious: e.SECRETS_KEY_PREVIOUS,
      outgoingAllowedHosts: e.OUTGOING_ALLOWED_HOSTS,
      slack:
        e.SLACK_CLIENT_ID && e.SLACK_CLIENT_SECRET
          ? { clientId: e.SLACK_CLIENT_ID, clientSecret: e.SLACK_CLIENT_SECRET }
          : null,
      slackApiUrl: (e.SLACK_API_URL ?? 'https://slack.com/api').replace(/\/+$/, ''),
      slackOAuthUrl: e.SLACK_OAUTH_URL ?? 'https://slack.com/oauth/v2/authorize',
    },
  };
}

/** The billing settings; `missingTogether` has checked that a Stripe provider has its keys. */
function billingConfig(e: z.infer<typeof envSchema>): BillingConfig {
  return {
    provider: e.BILLING_PROVIDER,
    catalogue: e.BILLING_PLANS_FILE ?? DEFAULT_CATALOGUE,
    trialDays: e.BILLING_TRIAL_DAYS,
    salesContact: e.BILLING_SALES_CONTACT ?? null,
    stripe:
      e.BILLING_PROVIDER === 'stripe' && e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL }
        : null,
  };
}
