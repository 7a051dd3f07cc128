import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) in a header. */
function decodeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([\w-]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    return Buffer.from(
      body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  }
  return body;
}

/** A single-part text message: its decoded subject and body. */
function parse(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim();
  return {
    subject: decodeWords(header('Subject') ?? ''),
    text: decodeBody(raw.slice(split + 4), header('Content-Transfer-Encoding')?.toLowerCase()).trim(),
  };
}

export interface TestSmtp {
  port: number;
  mails: ReceivedMail[];
  /** Resolves once `count` mails have arrived (rejects after `timeoutMs`, so a missing mail fails the test). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 for delivery tests: plain SMTP (no TLS), with AUTH PLAIN/LOGIN checked against
 * `credentials` when given.
 */
export async function startSmtp(options: { port?: number; credentials?: { user: string; pass: string } } = {}) {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: options.credentials === undefined,
    logger: false,
    onAuth(auth, _session, callback) {
      const expected = options.credentials;
      if (expected && auth.username === expected.user && auth.password === expected.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parse(raw),
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  // Once listening, the server reports a client's broken connection here (ECONNRESET when a test stops the
  // service that was sending): the mails received are what tests check, so that is not a failure of the test.
  server.on('error', () => {});
  const smtp: TestSmtp = {
    port,
    mails,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} mails, got ${mails.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return mails.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return smtp;
}

/** A company's notification settings that send e-mail to the stand-in, without TLS. */
export const smtpSettings = (smtp: Pick<TestSmtp, 'port'>) => ({
  smtpHost: '127.0.0.1',
  smtpPort: smtp.port,
  smtpSecurity: 'none',
  emailFrom: 'reception@acme.test',
});

/** Waits until the company's notification queue has nothing pending, and answers its counts. */
export async function settledQueue(
  call: (
    method: string,
    path: string,
  ) => Promise<{ body: { queue: { pending: number; done: number; failed: number } } }>,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { queue } = (await call('GET', '/v1/integration/notifications')).body;
    if (queue.pending === 0) return queue;
    if (Date.now() > deadline) throw new Error(`notifications still pending: ${JSON.stringify(queue)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The notification settings that send a company's e-mail to the test's SMTP server (plain SMTP, no login). */
export const smtpSettingsOf = (smtp: TestSmtp, emailFrom = 'reception@acme.test') => ({
  smtpHost: '127.0.0.1',
  smtpPort: smtp.port,
  smtpSecurity: 'none',
  emailFrom,
});
