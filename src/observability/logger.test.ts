import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => void lines.push(line) } };
}

describe('createLogger', () => {
  it('logs with no secrets configured', () => {
    const out = capture();
    const log = createLogger({ destination: out.destination });

    log.info({ account: '0.0.1003' }, 'poll done');

    expect(JSON.parse(out.lines[0] ?? '{}')).toMatchObject({ msg: 'poll done', account: '0.0.1003' });
  });

  it('scrubs a known secret value wherever it appears, and blanks secret-named fields', () => {
    const out = capture();
    const log = createLogger({ destination: out.destination, secrets: ['hooks/T0/B0/xyzzy-token'] });

    log.warn(
      { err: new Error('POST https://hooks/T0/B0/xyzzy-token failed'), cfg: { password: 'pw' } },
      'send failed',
    );

    expect(out.lines.join('')).not.toContain('xyzzy-token');
    expect(out.lines.join('')).not.toContain('"pw"');
    expect(out.lines.join('')).toContain('[redacted]');
  });

  it('scrubs credential-shaped text nobody configured: a Telegram bot token in a URL, a Slack token', () => {
    const out = capture();
    const log = createLogger({ destination: out.destination });

    log.warn(
      {
        err: new Error(
          'GET https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/x failed',
        ),
      },
      'send failed',
    );
    log.warn({ cfg: { bot_token: 'xoxb-1234-5678-AbCdEfGh' } }, 'config');

    expect(out.lines.join('')).not.toContain('AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw');
    expect(out.lines.join('')).not.toContain('AbCdEfGh');
  });
});
