import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  OPEN_PATHS,
  SESSION_MS,
  csrfToken,
  mayRead,
  newSession,
  sameOrigin,
  sessionCookie,
  sessionOf,
} from './http-auth.js';

const TOKEN = 'unit-token-77';
const NOW = Date.UTC(2030, 0, 1);
const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const withCookie = (value: string) => request({ cookie: `other=1; ls_session=${value}` });

describe('http auth', () => {
  it('accepts its own session until it expires, and never holds the token in it', () => {
    const session = newSession(TOKEN, NOW);

    expect(session).not.toContain(TOKEN);
    expect(sessionOf(withCookie(session), TOKEN, NOW + 1000)).toBe(session);
    expect(sessionOf(withCookie(session), TOKEN, NOW + SESSION_MS)).toBeUndefined();
    expect(sessionOf(withCookie(session), 'a-new-token', NOW)).toBeUndefined();
    expect(sessionOf(withCookie(session), undefined, NOW)).toBeUndefined();
  });

  it.each([
    ['tampered mac', (s: string) => s.slice(0, -1) + (s.endsWith('A') ? 'B' : 'A')],
    ['moved issue time', (s: string) => s.replace(/^v1\.\d+/, `v1.${NOW + 1}`)],
    ['far-future issue time', (s: string) => s.replace(/^v1\.\d+/, `v1.${NOW + SESSION_MS * 10}`)],
    ['garbage', () => '__proto__'],
    ['empty', () => ''],
  ])('refuses a %s', (_name, change) => {
    expect(sessionOf(withCookie(change(newSession(TOKEN, NOW))), TOKEN, NOW)).toBeUndefined();
  });

  it('derives a different CSRF token per session', () => {
    const a = newSession(TOKEN, NOW);
    const b = newSession(TOKEN, NOW);
    expect(csrfToken(TOKEN, a)).not.toBe(csrfToken(TOKEN, b));
    expect(csrfToken(TOKEN, a)).toBe(csrfToken(TOKEN, a));
  });

  it('sets an HttpOnly, SameSite=Strict cookie on /, Secure when asked', () => {
    expect(sessionCookie('v', false)).toBe('ls_session=v; Max-Age=43200; Path=/; HttpOnly; SameSite=Strict');
    expect(sessionCookie(undefined, true)).toBe(
      'ls_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure',
    );
  });

  it('lets only the open paths through without a token when reads need one', () => {
    const auth = { token: TOKEN, readAuth: true, secureCookie: false };
    const anonymous = request({});
    for (const path of OPEN_PATHS) expect(mayRead(anonymous, path, auth, NOW)).toBe(true);
    for (const path of ['/', '/quarantine', '/api/v1/alerts', '/constructor', '/__proto__', '/anything'])
      expect(mayRead(anonymous, path, auth, NOW), path).toBe(false);
    expect(mayRead(request({ authorization: `Bearer ${TOKEN}` }), '/', auth, NOW)).toBe(true);
    expect(mayRead(withCookie(newSession(TOKEN, NOW)), '/quarantine', auth, NOW)).toBe(true);
  });

  it.each([
    [{ host: 'a:1', origin: 'http://a:1' }, true],
    [{ host: 'a:1', referer: 'http://a:1/?x' }, true],
    [{ host: 'a:1', origin: 'http://b:1' }, false],
    [{ host: 'a:1', origin: 'null' }, false],
    [{ host: 'a:1' }, false],
  ])('checks the origin of a form post %j → %s', (headers, expected) => {
    expect(sameOrigin(request(headers))).toBe(expected);
  });
});
