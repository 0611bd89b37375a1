import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_DIR } from '../../test/helpers/shared.js';
import { formatIssue } from '../config/config-error.js';
import { loadConfigFile } from './load.js';
import { CONFIG_SECTIONS, Config } from './schema.js';
import { collectSecrets } from '../config/secret.js';

const DIR = join(REPO_DIR, 'test/fixtures/config');
const ENV = { LEDGER_URL: 'https://testnet.mirrornode.hedera.com' };

/** Every error fixture and the exact text the user sees (docs/architecture.md). */
const ERRORS: Readonly<Record<string, readonly string[]>> = {
  'syntax-error.yaml': ['syntax-error.yaml:2:13 the " opened here is never closed; add the closing "'],
  'unclosed-bracket.yaml': ['unclosed-bracket.yaml:3:7 the { opened here is never closed; add the closing }'],
  'duplicate-key.yaml': [
    'duplicate-key.yaml:4:3 duplicate key "requests_per_second" (first set on line 3); keep only one',
  ],
  'tab-indent.yaml': ['tab-indent.yaml:2:1 tabs are not allowed as indentation in YAML; indent with spaces'],
  'unknown-tag.yaml': [
    'unknown-tag.yaml:2:13 unresolved tag: !url; remove the "!" tag, config files use plain YAML',
  ],
  'flow-map-env.yaml': [
    'flow-map-env.yaml:1:22 inside { } or [ ], a value using ${VAR} must be quoted: "${VAR}"',
  ],
  'multiple-documents.yaml': [
    'multiple-documents.yaml:3:1 a second YAML document starts here, but this file holds one; remove the "---" and merge the two',
  ],
  'empty-file.yaml': ['empty-file.yaml:1:1 expected a mapping (key: value), got an empty value'],
  'missing-section.yaml': [
    'missing-section.yaml:1:1 ledger: missing required key "ledger"; add it at the top level',
  ],
  'missing-required-key.yaml': [
    'missing-required-key.yaml:2:3 ledger.base_url: missing required key "base_url"; add it to ledger',
  ],
  'empty-section.yaml': [
    'empty-section.yaml:1:1 ledger: expected a mapping (key: value), got an empty value',
  ],
  'unknown-key-did-you-mean.yaml': [
    'unknown-key-did-you-mean.yaml:3:3 ledger.request_per_second: unknown key "request_per_second"; did you mean "requests_per_second"?',
  ],
  'unknown-key-no-match.yaml': [
    'unknown-key-no-match.yaml:3:3 ledger.proxy: unknown key "proxy"; allowed keys here: base_url, requests_per_second, timeouts, max_response_bytes, retry',
  ],
  'unknown-section.yaml': ['unknown-section.yaml:3:1 lgo: unknown key "lgo"; did you mean "log"?'],
  'unknown-file-key.yaml': [
    'unknown-file-key.yaml:6:3 verification.api_kee_file: unknown key "api_kee_file"; did you mean "api_key_file"?',
  ],
  'wrong-type.yaml': ['wrong-type.yaml:3:24 ledger.requests_per_second: expected a number, got "abc"'],
  'wrong-type-mapping.yaml': [
    'wrong-type-mapping.yaml:3:13 ledger.timeouts: expected a mapping (key: value), got "5s"',
  ],
  'quoted-number.yaml': [
    'quoted-number.yaml:4:9 http.port: expected a number, got "9464"; remove the quotes',
  ],
  'number-too-small.yaml': [
    'number-too-small.yaml:3:24 ledger.requests_per_second: expected a number > 0, got 0',
  ],
  'port-out-of-range.yaml': ['port-out-of-range.yaml:4:9 http.port: expected a number ≤ 65535, got 70000'],
  'not-an-integer.yaml': [
    'not-an-integer.yaml:4:19 ledger.retry.max_attempts: expected a whole number, got 2.5',
  ],
  'bad-enum.yaml': [
    'bad-enum.yaml:4:10 log.level: expected one of trace, debug, info, warn, error, fatal, silent, got "warning"; did you mean "warn"?',
  ],
  'bad-url.yaml': [
    'bad-url.yaml:2:13 ledger.base_url: expected an http(s) URL like "https://mainnet.mirrornode.hedera.com", got "mainnet.mirrornode.hedera.com"',
  ],
  'bad-url-scheme.yaml': [
    'bad-url-scheme.yaml:2:13 ledger.base_url: expected an http(s) URL like "https://mainnet.mirrornode.hedera.com", got "ftp://mainnet.mirrornode.hedera.com"',
  ],
  'bad-url-template.yaml': [
    'bad-url-template.yaml:4:20 explorer.transaction_url: expected an http(s) URL template like "https://hashscan.io/mainnet/transaction/{{consensus_timestamp}}" (or "" for no links), got "hashscan.io/mainnet/transaction/{{consensus_timestamp}}"',
  ],
  'bad-duration.yaml': [
    'bad-duration.yaml:4:14 ledger.timeouts.connect: expected a duration like "2s" or "10m", got "2 seconds"',
  ],
  'duration-without-unit.yaml': [
    'duration-without-unit.yaml:4:11 ledger.timeouts.body: expected a duration like "2s" or "10m", got 30 (a number needs a unit: ms, s, m, h or d)',
  ],
  'zero-duration.yaml': ['zero-duration.yaml:4:14 ledger.timeouts.headers: must be at least 1ms, got "0s"'],
  'retry-delays.yaml': [
    'retry-delays.yaml:5:16 ledger.retry.max_delay: must not be shorter than base_delay; raise max_delay or lower base_delay',
  ],
  'missing-env-var.yaml': [
    'missing-env-var.yaml:2:13 ledger.base_url: environment variable MIRROR_NODE_URL is not set; set it in the environment, or give a default: ${MIRROR_NODE_URL:-value}',
  ],
  'invalid-env-reference.yaml': [
    'invalid-env-reference.yaml:4:8 state.dir: "${DATA DIR}" is not a valid environment reference; write ${NAME} or ${NAME:-default}, or $${ for a literal "${"',
  ],
  'chain-id-number.yaml': [
    'chain-id-number.yaml:5:13 verification.chain_id: expected a quoted string, got the number 295; write chain_id: "295"',
  ],
  'secret-and-file.yaml': [
    'secret-and-file.yaml:7:3 verification.api_key_file: set either api_key or api_key_file, not both',
  ],
  'inhibit-bad-matcher.yaml': [
    'inhibit-bad-matcher.yaml:4:23 inhibit_rules.0.source_matchers.0: rule=~: invalid regular expression "(?=x)y": lookahead `(?=` at character 1 is not supported: rule regexes run on RE2, a linear-time engine; rewrite without it',
    'inhibit-bad-matcher.yaml:5:23 inhibit_rules.0.target_matchers.0: expected name="value" with one of =, !=, =~, !~ (e.g. rule="large-debit"), got "severity"',
  ],
  'not-utf8.yaml': [
    'not-utf8.yaml:4:30 invalid UTF-8 at byte offset 73 (byte 0xE9): the file is in another encoding (Latin-1, Windows-1252?); save the file as UTF-8',
  ],
  'proto-key.yaml': [
    'proto-key.yaml:7:24 routes.0.match.labels.__proto__: "__proto__" cannot be a key: a mapping would drop it silently (a route or a silence on it would match every alert); rename it',
  ],
  'ha-on-sqlite.yaml': [
    'ha-on-sqlite.yaml:4:12 ha.enabled: needs state.backend: postgres, got "sqlite": a SQLite state file belongs to one process, so a second replica could never take over; set state.backend: postgres with state.url_file, or ha.enabled: false (docs/deployment.md)',
  ],
  'api-read-auth-without-token.yaml': [
    'api-read-auth-without-token.yaml:4:18 http.api_read_auth: api_read_auth needs a token: set api_token_file (or api_token) too',
  ],
  'state-postgres-without-url.yaml': [
    'state-postgres-without-url.yaml:4:3 state: backend postgres needs the server: set state.postgres.url_file to a file holding postgres://user:password@host:5432/db (or state.postgres.url)',
  ],
  'unreadable-secret-file.yaml': [
    "unreadable-secret-file.yaml:6:3 verification.api_key_file: cannot read secrets/missing-api-key (relative to the config file's folder): no such file (ENOENT); check the path and that ledger-sentinel may read it",
  ],
  'empty-secret-file.yaml': [
    "empty-secret-file.yaml:6:3 verification.api_key_file: secrets/empty (relative to the config file's folder) is empty; put the value of api_key in it",
  ],
  'secret-wrong-type.yaml': [
    'secret-wrong-type.yaml:6:12 verification.api_key: expected a string, got a number; quote it to make it text',
  ],
  'several-errors.yaml': [
    'several-errors.yaml:2:10 log.level: expected one of trace, debug, info, warn, error, fatal, silent, got "loud"',
    'several-errors.yaml:4:13 ledger.base_url: environment variable MIRROR_NODE_URL is not set; set it in the environment, or give a default: ${MIRROR_NODE_URL:-value}',
    'several-errors.yaml:6:5 ledger.timeouts.conect: unknown key "conect"; did you mean "connect"?',
    'several-errors.yaml:7:11 ledger.timeouts.body: expected a duration like "2s" or "10m", got "forever"',
    'several-errors.yaml:9:9 http.port: expected a number ≥ 0, got -1',
  ],
};
const VALID = ['valid.yaml', 'minimal.yaml'];

function load(name: string) {
  return loadConfigFile(join(DIR, name), { env: ENV });
}

function shown(name: string): string[] {
  const result = load(name);
  return result.ok ? [] : result.issues.map((issue) => formatIssue(issue).replace(`${DIR}/`, ''));
}

describe('loadConfigFile error fixtures', () => {
  it.each(Object.entries(ERRORS))('%s', (name, expected) => {
    const lines = shown(name);

    expect(lines).toEqual(expected);
  });

  it('never shows a secret, inline or from a file', () => {
    const secretFixtures = ['secret-and-file.yaml', 'secret-wrong-type.yaml', 'empty-secret-file.yaml'];

    const text = secretFixtures.flatMap(shown).join('\n');

    expect(text).not.toMatch(/s3cr3t-api-key|inline-key|918273645/);
    expect(text.split('\n')).toHaveLength(3);
  });

  it('has one table entry for every fixture file, and a file for every entry', () => {
    const files = readdirSync(DIR).filter((file) => file.endsWith('.yaml'));

    expect(files.sort()).toEqual([...Object.keys(ERRORS), ...VALID].sort());
  });
});

describe('loadConfigFile', () => {
  it('loads every section, expanding ${VAR}, defaults and *_file secrets', () => {
    const result = load('valid.yaml');

    expect(result).toMatchObject({
      ok: true,
      value: {
        ledger: {
          base_url: 'https://testnet.mirrornode.hedera.com',
          requests_per_second: 20,
          timeouts: { connect: 2000, headers: 5000, body: 60_000 },
          max_response_bytes: 1_048_576,
          retry: { max_attempts: 3, base_delay: 100, max_delay: 5_400_000 },
        },
        verification: { base_url: 'https://sourcify.dev/server', chain_id: '296', api_key: 's3cr3t-api-key' },
        explorer: { transaction_url: 'https://hashscan.io/testnet/transaction/{{consensus_timestamp}}' },
        state: { dir: '/tmp/ledger-sentinel' },
        http: { host: '127.0.0.1', port: 0 },
        log: { level: 'debug' },
      },
    });
  });

  it('fills every default around the one required key', () => {
    const result = load('minimal.yaml');

    expect(result).toMatchObject({
      ok: true,
      value: {
        ledger: {
          base_url: 'https://mainnet.mirrornode.hedera.com',
          requests_per_second: 50,
          timeouts: { connect: 5000, headers: 10_000, body: 30_000, total: 60_000 },
          max_response_bytes: 10_485_760,
          retry: { max_attempts: 5, base_delay: 250, max_delay: 30_000 },
        },
        explorer: {},
        state: { dir: '/var/lib/ledger-sentinel' },
        http: { host: '0.0.0.0', port: 9464 },
        log: { level: 'info' },
      },
    });
    // Every section gets its defaults, except verification and heartbeat: absent means "not configured".
    const optional = ['verification', 'heartbeat'];
    const defaulted = Object.keys(CONFIG_SECTIONS).filter((key) => !optional.includes(key));
    expect(result.ok && Object.keys(result.value).sort()).toEqual(defaulted.sort());
  });

  it('collects the secret read from api_key_file', () => {
    const result = load('valid.yaml');

    const secrets = result.ok ? collectSecrets(Config, result.value) : [];

    expect(secrets).toEqual(['s3cr3t-api-key']);
  });

  it('names a missing config file and suggests --config', () => {
    const path = join(DIR, 'no-such-config.yaml');

    const result = loadConfigFile(path, { env: ENV });

    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([
      `${path}: cannot read the config file: no such file (ENOENT); pass the right path with --config <path>`,
    ]);
  });

  it('never shows the content of a secret file in an error', () => {
    const result = loadConfigFile('config.yaml', {
      env: {},
      readFile: (path) =>
        path === 'config.yaml'
          ? 'ledger:\n  base_url_file: /run/secrets/url\n'
          : 'not a url but a secret token\n',
    });

    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([
      'config.yaml:2:18 ledger.base_url_file: expected an http(s) URL like "https://mainnet.mirrornode.hedera.com", got a string',
    ]);
  });
});
