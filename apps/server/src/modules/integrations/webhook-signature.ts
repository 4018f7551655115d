import { createHmac, randomBytes } from 'node:crypto';

/*
 * Standard Webhooks (https://www.standardwebhooks.com, docs/adr/0017-integrations-and-outgoing-requests.md):
 * each request carries `webhook-id` (the message id, the same at every attempt), `webhook-timestamp`
 * (the attempt's time, in seconds) and `webhook-signature`: `v1,` and the base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`, keyed by the bytes of the secret (base64 after its `whsec_` prefix).
 */

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/** A new message id. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/** The `webhook-signature` header of one attempt. */
export function signWebhook(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  const signature = createHmac('sha256', key)
    .update(`${messageId}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${signature}`;
}

/** The headers of one attempt to deliver `body`. */
export function webhookHeaders(
  secret: string,
  messageId: string,
  at: Date,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Vexil-Webhooks/1.0',
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, messageId, timestamp, body),
  };
}
