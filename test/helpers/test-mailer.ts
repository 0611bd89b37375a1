// An email notifier sending to a local SMTP server on `port`, with a fixed Message-ID domain.
import { email } from '../../src/notifiers/email/email.js';
import type { Notifier } from '../../src/notifiers/notifier.js';
import { testNotifierDeps } from './notifier-deps.js';

export function testMailer(port: number): Notifier {
  const config = email.config.parse({
    kind: 'email',
    host: '127.0.0.1',
    port,
    security: 'none',
    from: 'sentinel@example.com',
    to: ['ops@example.com'],
    message_id_domain: 'sentinel.test',
  });
  return email.create('mail', config, testNotifierDeps());
}
