// A real SMTP server (smtp-server) on 127.0.0.1:0 with optional auth, STARTTLS or implicit TLS (the package's
// built-in self-signed certificate), and scripted refusals; delivered mail is parsed with mailparser.
import { once, EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpOptions {
  readonly auth?: { readonly user: string; readonly pass: string };
  /** Implicit TLS from the first byte (port 465 style); otherwise STARTTLS is offered. */
  readonly secure?: boolean;
}

export interface SmtpSink {
  readonly port: number;
  readonly messages: ParsedMail[];
  /** Size in bytes of each delivered message as it came over the wire, in the order of `messages`. */
  readonly sizes: number[];
  /** Refuse the next `count` messages at DATA with this SMTP code (451 = try later, 550 = rejected). */
  refuseNext(count: number, code: number): void;
  waitForMessages(count: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpServer(options: SmtpOptions = {}): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const sizes: number[] = [];
  const events = new EventEmitter();
  let refusals: { count: number; code: number } = { count: 0, code: 451 };
  const server = new SMTPServer({
    secure: options.secure ?? false,
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.auth?.user && auth.password === options.auth?.pass)
        return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        if (refusals.count > 0) {
          refusals = { ...refusals, count: refusals.count - 1 };
          return callback(Object.assign(new Error('Try again later'), { responseCode: refusals.code }));
        }
        messages.push(mail);
        sizes.push((stream as unknown as { byteLength?: number }).byteLength ?? 0);
        callback();
        events.emit('message');
      }, callback);
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    messages,
    sizes,
    refuseNext: (count, code) => void (refusals = { count, code }),
    async waitForMessages(count) {
      while (messages.length < count) await once(events, 'message');
      return messages.slice(0, count);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
