// pino, injected everywhere (docs/architecture.md): child loggers per component, static messages, values as fields.
import { pino, type Logger, type DestinationStream } from 'pino';
import { redactCredentialShapes } from './credential-shapes.js';

export type { Logger };

/** Paths pino blanks out wherever they appear; secrets are also scrubbed by value (see redactSecrets). */
export const REDACT_PATHS = [
  '*.apiKey',
  '*.api_key',
  '*.password',
  '*.pass',
  '*.webhook_url',
  '*.webhookUrl',
  '*.bot_token',
  '*.botToken',
  '*.secret',
  '*.signing_secret',
  '*.authorization',
  '*.headers.authorization',
  'config.*.api_key',
];

export interface LoggerOptions {
  readonly level?: string;
  readonly destination?: DestinationStream;
  /** Known secret values (from config); any log line containing one has it replaced. */
  readonly secrets?: readonly string[];
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = (options.secrets ?? []).filter((s) => s.length >= 4);
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'ledger-sentinel' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      // Always: credential-shaped text (a Telegram bot token in a URL, a Slack token) is scrubbed even unconfigured.
      hooks: { streamWrite: (line: string) => redactSecrets(line, secrets) },
    },
    options.destination,
  );
}

/** Replaces every occurrence of every secret value, and any credential-shaped text, in a string. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  return redactCredentialShapes(out);
}
