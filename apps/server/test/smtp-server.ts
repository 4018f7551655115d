import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the test mail server took: its envelope and the parsed message. */
export type ReceivedMail = { from: string; to: string[]; message: ParsedMail };

export type TestMailServer = {
  /** `smtp://user:pass@127.0.0.1:{port}` (or without credentials), for `SMTP_URL`. */
  url: string;
  received: ReceivedMail[];
  /** Waits until `count` messages have arrived in all. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** From now on, refuse every recipient with 550 (or accept them again). */
  refuseRecipients(refuse: boolean): void;
  close(): Promise<void>;
};

/**
 * A real SMTP server on loopback (nodemailer's `smtp-server`), as a mail relay would receive the
 * product's mail: over the SMTP protocol, with the optional sign-in, each message parsed as a mail
 * client would (`mailparser`). No STARTTLS, as on a local relay.
 */
export async function startTestMailServer(
  options: {
    credentials?: { user: string; pass: string };
    /** The port to listen on (to start a server again where one stopped); default any free one. */
    port?: number;
  } = {},
): Promise<TestMailServer> {
  const received: ReceivedMail[] = [];
  let refusing = false;
  let notify = () => {};
  const { credentials } = options;
  const server = new SMTPServer({
    disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !credentials,
    logger: false,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.pass)
        return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(_address, _session, callback) {
      if (!refusing) return callback();
      return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((message) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            message,
          });
          notify();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const auth = credentials
    ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@`
    : '';
  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    received,
    refuseRecipients(refuse) {
      refusing = refuse;
    },
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`Expected ${count} message(s), received ${received.length}`)),
          timeoutMs,
        );
        notify = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          resolve(received);
        };
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
