// A real pino logger writing into memory, so tests can read what would have been logged.
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

export interface LogCapture {
  readonly logger: Logger;
  /** Everything written so far, one JSON line per entry. */
  text(): string;
  entries(): Record<string, unknown>[];
}

/** No redaction configured on purpose: tests prove notifiers leak nothing even without it. */
export function captureLogs(): LogCapture {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'debug' }, stream);
  return {
    logger,
    text: () => lines.join(''),
    entries: () =>
      lines
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
