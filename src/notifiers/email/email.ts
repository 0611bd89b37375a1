// Email over SMTP via nodemailer (TLS, STARTTLS, auth). One connection per send (no pool): alerts are rare and
// a fresh connection recovers from a restarted server without extra state.
import nodemailer from 'nodemailer';
import { NotifyError, type Notifier } from '../notifier.js';
import type { NotifierKind } from '../notifier-kind.js';
import { EmailConfig } from './config.js';
import { emailMessage } from './message.js';
import { encodeSubject } from './subject.js';

export const email: NotifierKind<EmailConfig> = {
  config: EmailConfig,
  secrets: (config) => (config.password ? [config.password] : []),
  create(name, config): Notifier {
    const transport = nodemailer.createTransport({
      host: config.host,
      port: config.port,
      secure: config.security === 'tls',
      requireTLS: config.security === 'starttls',
      ignoreTLS: config.security === 'none',
      ...(config.username ? { auth: { user: config.username, pass: config.password } } : {}),
      tls: { rejectUnauthorized: !config.tls_insecure_skip_verify },
      connectionTimeout: config.timeout,
      greetingTimeout: config.timeout,
      socketTimeout: config.timeout,
      logger: false,
      debug: false,
    });
    return {
      name,
      kind: 'email',
      async send(notification) {
        const parts = emailMessage(notification, config.group_max_listed, config.message_id_domain);
        try {
          await transport.sendMail({
            from: config.from,
            to: config.to,
            // Prepared: nodemailer must not re-encode (or leave unencoded) what encodeSubject wrote.
            headers: { Subject: { prepared: true, value: encodeSubject(parts.subject) } },
            text: parts.text,
            html: parts.html,
            messageId: parts.messageId,
            ...(parts.inReplyTo ? { inReplyTo: parts.inReplyTo } : {}),
            ...(parts.references ? { references: parts.references } : {}),
          });
        } catch (err) {
          throw classifySmtpError(name, err);
        }
      },
    };
  },
};

const TRANSIENT_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ECONNREFUSED',
  'ECONNRESET',
]);

/** SMTP 4xx and connection failures are retryable; 5xx, auth and envelope errors are permanent. */
export function classifySmtpError(name: string, err: unknown): NotifyError {
  const e = (err ?? {}) as { code?: unknown; responseCode?: unknown };
  const what = `SMTP server of notifier "${name}"`;
  if (typeof e.responseCode === 'number') {
    const retryable = e.responseCode >= 400 && e.responseCode < 500;
    const hint = retryable ? '' : ' (permanent; check the notifier config and recipients)';
    return new NotifyError(`${what} answered ${e.responseCode}${hint}`, {
      retryable,
      reason: `smtp_${e.responseCode}`,
    });
  }
  const code = typeof e.code === 'string' && /^[A-Z0-9_]+$/.test(e.code) ? e.code : 'UNKNOWN';
  const retryable = code === 'UNKNOWN' || TRANSIENT_CODES.has(code);
  return new NotifyError(`${what} failed (${code})`, { retryable, reason: code.toLowerCase() });
}
