// A real SMTP server (smtp-server) on 127.0.0.1 that plays a fault plan until heal(): connections refused with
// 421, messages refused at DATA with a temporary code, slow answers; heal() takes effect once the plan has played
// through. A message counts as delivered only when the server accepted it.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { SmtpFault } from './fault-plan.js';

export interface HostileSmtp {
  readonly port: number;
  /** Subject, text and HTML of every accepted message. */
  readonly accepted: string[];
  /** Faults applied, by kind. */
  stats(): Record<string, number>;
  heal(): void;
  close(): Promise<void>;
}

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

export async function startHostileSmtp(plan: readonly SmtpFault[]): Promise<HostileSmtp> {
  const accepted: string[] = [];
  const counts: Record<string, number> = {};
  const state = { healed: false, draws: 0 };
  /** Healed once asked to and once every fault of the plan has been played (so each drawn fault is felt). */
  const healed = () => state.healed && state.draws >= plan.length;
  const draw = (): SmtpFault => {
    const fault = healed()
      ? { kind: 'none' as const }
      : (plan[state.draws++ % plan.length] ?? { kind: 'none' as const });
    counts[fault.kind] = (counts[fault.kind] ?? 0) + 1;
    return fault;
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      const fault = draw();
      if (fault.kind === 'disconnect') return callback(smtpError('Too busy, try later', 421));
      if (fault.kind === 'delay') return void setTimeout(() => callback(), fault.ms);
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        const fault = draw();
        if (fault.kind === 'tempfail') return callback(smtpError('Try again later', fault.code));
        if (fault.kind === 'disconnect') return callback(smtpError('Closing', 421));
        const accept = () => {
          accepted.push(
            `${mail.subject ?? ''}\n${mail.text ?? ''}\n${typeof mail.html === 'string' ? mail.html : ''}`,
          );
          callback();
        };
        if (fault.kind === 'delay') setTimeout(accept, fault.ms);
        else accept();
      }, callback);
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    accepted,
    stats: () => ({ ...counts }),
    heal: () => void (state.healed = true),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
