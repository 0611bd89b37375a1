// A real SMTP server (smtp-server) with authentication on a fixed 127.0.0.1 port that can go down (the port
// refuses connections) and come back on the same port. Delivered mail is parsed with mailparser.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ChaosSmtp {
  port(): number;
  readonly user: string;
  readonly password: string;
  readonly messages: ParsedMail[];
  /** Wire size in bytes of each message, in the order of `messages`. */
  readonly sizes: number[];
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

function server(user: string, password: string, messages: ParsedMail[], sizes: number[]): SMTPServer {
  return new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) return callback(null, { user });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        messages.push(mail);
        sizes.push((stream as unknown as { byteLength?: number }).byteLength ?? 0);
        callback();
      }, callback);
    },
  });
}

export async function startChaosSmtp(): Promise<ChaosSmtp> {
  const user = 'sentinel';
  const password = `chaosSMTPpass${Math.random().toString(36).slice(2, 12)}`;
  const messages: ParsedMail[] = [];
  const sizes: number[] = [];
  let current: SMTPServer | undefined = server(user, password, messages, sizes);
  current.listen(0, '127.0.0.1');
  await once(current.server, 'listening');
  const port = (current.server.address() as AddressInfo).port;
  const stop = async () => {
    const s = current;
    current = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  return {
    port: () => port,
    user,
    password,
    messages,
    sizes,
    down: stop,
    async up() {
      if (current) return;
      current = server(user, password, messages, sizes);
      current.listen(port, '127.0.0.1');
      await once(current.server, 'listening');
    },
    close: stop,
  };
}

export function emailNotifier(name: string, smtp: ChaosSmtp, extra = ''): string {
  return `  ${name}: { kind: email, host: 127.0.0.1, port: ${smtp.port()}, security: none, username: ${smtp.user}, password: ${smtp.password}, from: sentinel@example.com, to: [ops@example.com], group_wait: 0s, timeout: 5s${extra} }`;
}

/** Subject, text and HTML of each message, for marker counting. */
export function mailBodies(smtp: ChaosSmtp): string[] {
  return smtp.messages.map(
    (m) => `${m.subject ?? ''}\n${m.text ?? ''}\n${typeof m.html === 'string' ? m.html : ''}`,
  );
}
