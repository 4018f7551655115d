import type { Transporter } from 'nodemailer';

/** One e-mail: always a plain-text part and an HTML part. */
export type MailMessage = {
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
};

/**
 * Outgoing mail over SMTP (`SMTP_URL`, `MAIL_FROM`). Without `SMTP_URL` the mailer is not configured
 * and sends nothing: callers check `configured` and offer another way (an invitation's link to copy).
 */
export type Mailer = {
  readonly configured: boolean;
  /** Sends one message; rejects with a {@link MailDeliveryError}. */
  send(message: MailMessage): Promise<void>;
  close(): void;
};

/**
 * A message the mail server did not take. `reason` is safe to show and to log: it never quotes the
 * server's reply or the SMTP command, which can hold the recipient's address.
 */
export class MailDeliveryError extends Error {
  constructor(
    readonly reason: string,
    /** Nodemailer's code (`ECONNECTION`, `EAUTH`, `EENVELOPE`…) and the SMTP reply code, for the log. */
    readonly diagnostics: { code: string | null; responseCode: number | null; command: string | null },
  ) {
    super(reason);
    this.name = 'MailDeliveryError';
  }

  /**
   * Whether the same message may go through later: no answer from the mail server (refused, timed
   * out, cut) or a 4xx reply. A 5xx reply, a refused sign-in or a refused address is final.
   */
  get transient(): boolean {
    const { code, responseCode } = this.diagnostics;
    if (responseCode !== null) return responseCode >= 400 && responseCode < 500;
    return code === null || !FINAL_CODES.has(code);
  }
}

/** Nodemailer's codes of a failure that trying again does not mend, when the server gave no reply code. */
const FINAL_CODES = new Set(['EAUTH', 'ENOAUTH', 'EENVELOPE', 'EMESSAGE']);

// A dead or silent mail server must not hold a request for nodemailer's defaults (2 and 10 minutes).
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

type NodemailerError = Error & {
  code?: unknown;
  responseCode?: unknown;
  command?: unknown;
};

const UNREACHABLE = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EDNS', 'ECONNREFUSED', 'EPROXY']);

/** What went wrong, in words an admin can act on. */
function reasonOf(code: string | null, responseCode: number | null): string {
  const reply = responseCode === null ? '' : ` (${responseCode})`;
  if (code === 'EAUTH' || code === 'ENOAUTH')
    return `the mail server refused to sign in${reply}; check the user and password in SMTP_URL`;
  if (code === 'ETLS') return 'the secure connection to the mail server failed';
  if (code !== null && UNREACHABLE.has(code)) return 'the mail server could not be reached';
  if (code === 'EENVELOPE') return `the mail server refused the sender or the recipient${reply}`;
  return `the mail server refused the message${reply}`;
}

function deliveryError(error: unknown): MailDeliveryError {
  const failure = error as NodemailerError;
  const code = typeof failure?.code === 'string' ? failure.code : null;
  const responseCode = typeof failure?.responseCode === 'number' ? failure.responseCode : null;
  // "RCPT TO:<someone@example.com>" names the recipient: only the verb is kept.
  const command = typeof failure?.command === 'string' ? (failure.command.split(/[\s:]/)[0] ?? null) : null;
  return new MailDeliveryError(reasonOf(code, responseCode), { code, responseCode, command });
}

/** The mailer for `SMTP_URL` (unset: not configured), sending as `from`. */
export function createMailer(options: { smtpUrl: string | undefined; from: string }): Mailer {
  const { smtpUrl, from } = options;
  if (!smtpUrl) {
    return {
      configured: false,
      send: () => Promise.reject(new MailDeliveryError('mail is not configured on this server', nullish())),
      close: () => {},
    };
  }
  // Nodemailer loads with the first message: most of the server's life sends none.
  let transport: Promise<Transporter> | null = null;
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: CONNECTION_TIMEOUT_MS,
        greetingTimeout: GREETING_TIMEOUT_MS,
        socketTimeout: SOCKET_TIMEOUT_MS,
      }),
    ));
  return {
    configured: true,
    async send(message) {
      try {
        await (
          await open()
        ).sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
      } catch (error) {
        throw deliveryError(error);
      }
    },
    close: () => void transport?.then((opened) => opened.close()),
  };
}

function nullish() {
  return { code: null, responseCode: null, command: null };
}
