import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssue } from './config-error.js';
import { duration } from './duration.js';
import { loadYaml, type LoadResult } from './load-yaml.js';
import { loadYamlDocuments } from './load-yaml-documents.js';
import { secret } from './secret.js';

const Notifier = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('slack'), webhook_url: secret() }),
  z.strictObject({ kind: z.literal('webhook'), url: z.string(), ca_file: z.string().optional() }),
]);
const Schema = z.strictObject({
  accounts: z
    .array(
      z.strictObject({ id: z.string().regex(/^\d+\.\d+\.\d+$/, 'expected an account id like "0.0.1234"') }),
    )
    .default([]),
  notifiers: z.record(z.string(), Notifier).default({}),
  port: z.number().optional(),
  name: z.string().optional(),
  every: duration().optional(),
  target: z
    .union([
      z.string(),
      z.strictObject({ host: z.string(), port: z.number() }),
      z.strictObject({ url: z.string() }),
    ])
    .optional(),
  start: z.union([z.literal('now'), z.literal('earliest'), z.number()]).optional(),
});

function lines(result: LoadResult<unknown>): string[] {
  return result.ok ? [] : result.issues.map(formatIssue);
}

function load(text: string, options: { env?: Record<string, string>; files?: Record<string, string> } = {}) {
  const files = options.files ?? {};
  return loadYaml({
    file: 'c.yaml',
    text,
    schema: Schema,
    env: options.env ?? {},
    baseDir: '/cfg',
    readFile: (path) => {
      const content = files[path];
      if (content === undefined) throw Object.assign(new Error(`EACCES: open '${path}'`), { code: 'EACCES' });
      return content;
    },
  });
}

describe('loadYaml positions', () => {
  it('points into nested lists and mappings', () => {
    const text = 'accounts:\n  - id: 0.0.1\n  - id: 0.0.2\n  - { id: treasury }\n';

    const result = load(text);

    expect(lines(result)).toEqual(['c.yaml:4:11 accounts.2.id: expected an account id like "0.0.1234"']);
  });

  it('points at a missing key’s mapping and at an unknown key itself', () => {
    const text = 'notifiers:\n  ops:\n    kind: webhook\n    uri: https://x\n';

    const result = load(text);

    expect(lines(result)).toEqual([
      'c.yaml:3:5 notifiers.ops.url: missing required key "url"; add it to notifiers.ops',
      'c.yaml:4:5 notifiers.ops.uri: unknown key "uri"; did you mean "url"?',
    ]);
  });
});

describe('loadYaml syntax', () => {
  it('reports every syntax problem at once, one per line', () => {
    const text = 'port: 1\nport: 2\nname: !thing x\n';

    const result = load(text);

    expect(lines(result)).toEqual([
      'c.yaml:2:1 duplicate key "port" (first set on line 1); keep only one',
      'c.yaml:3:7 unresolved tag: !thing; remove the "!" tag, config files use plain YAML',
    ]);
  });

  it('accepts a leading and a trailing "---"', () => {
    const text = '---\nport: 1\n---\n';

    const result = load(text);

    expect(result.ok && result.value.port).toBe(1);
  });
});

describe('loadYaml unions', () => {
  it.each([
    [
      'notifiers:\n  ops: { kind: slak }\n',
      'c.yaml:2:16 notifiers.ops.kind: expected one of slack, webhook, got "slak"; did you mean "slack"?',
    ],
    [
      'notifiers:\n  ops: { url: x }\n',
      'c.yaml:2:8 notifiers.ops.kind: missing required key "kind"; add it with one of slack, webhook',
    ],
    ['target: 5\n', 'c.yaml:1:9 target: expected a string or a mapping (key: value), got 5'],
    ['target: { host: a, port: x }\n', 'c.yaml:1:26 target.port: expected a number, got "x"'],
    ['target: { host: a }\n', 'c.yaml:1:9 target.port: missing required key "port"; add it to target'],
    ['start: later\n', 'c.yaml:1:8 start: expected "now", "earliest" or a number, got "later"'],
  ])('%j', (text, expected) => {
    const result = load(text);

    expect(lines(result)).toEqual([expected]);
  });
});

describe('loadYaml ${VAR} expansion', () => {
  it('retypes unquoted values, keeps quoted ones as text, and honours $${ and defaults', () => {
    const text = 'port: ${PORT}\nname: "${PORT}-$${HOME}-${UNSET:-fallback}"\n';

    const result = load(text, { env: { PORT: '9464' } });

    expect(result).toEqual({
      ok: true,
      value: { accounts: [], notifiers: {}, port: 9464, name: '9464-${HOME}-fallback' },
    });
  });

  it('reports every missing variable and nothing else at that value', () => {
    const text = 'name: ${A}${B:-b}${C}\nevery: ${D}\n';

    const result = load(text);

    expect(lines(result)).toEqual([
      'c.yaml:1:7 name: environment variable A is not set; set it in the environment, or give a default: ${A:-value}',
      'c.yaml:1:7 name: environment variable C is not set; set it in the environment, or give a default: ${C:-value}',
      'c.yaml:2:8 every: environment variable D is not set; set it in the environment, or give a default: ${D:-value}',
    ]);
  });
});

describe('loadYaml *_file twins', () => {
  it('reads a secret from a file relative to baseDir and trims the trailing newline', () => {
    const text = 'notifiers:\n  ops: { kind: slack, webhook_url_file: secrets/slack }\n';

    const result = load(text, { files: { '/cfg/secrets/slack': 'https://hooks.slack.test/T1\n' } });

    expect(result.ok && result.value.notifiers).toEqual({
      ops: { kind: 'slack', webhook_url: 'https://hooks.slack.test/T1' },
    });
  });

  it('leaves a key that the schema declares with its _file suffix alone', () => {
    const text = 'notifiers:\n  hook: { kind: webhook, url: https://x, ca_file: /etc/ca.pem }\n';

    const result = load(text);

    expect(result.ok && result.value.notifiers).toEqual({
      hook: { kind: 'webhook', url: 'https://x', ca_file: '/etc/ca.pem' },
    });
  });

  it('gives the OS reason for an unreadable file but not the error text', () => {
    const text = 'notifiers:\n  ops: { kind: slack, webhook_url_file: /run/secrets/slack }\n';

    const result = load(text);

    expect(lines(result)).toEqual([
      'c.yaml:2:23 notifiers.ops.webhook_url_file: cannot read /run/secrets/slack: permission denied (EACCES); check the path and that ledger-sentinel may read it',
    ]);
  });

  it('never echoes a secret of the wrong type', () => {
    const text = 'notifiers:\n  ops: { kind: slack, webhook_url: [hunter2] }\n';

    const result = load(text);

    expect(lines(result)).toEqual(['c.yaml:2:36 notifiers.ops.webhook_url: expected a string, got a list']);
  });
});

describe('loadYamlDocuments', () => {
  it('validates each document and reports problems from all of them in order', () => {
    const text = 'port: 1\n---\nport: x\n---\nprot: 3\n';

    const result = loadYamlDocuments({ file: 'r.yaml', text, schema: Schema, env: {} });

    expect(lines(result)).toEqual([
      'r.yaml:3:7 port: expected a number, got "x"',
      'r.yaml:5:1 prot: unknown key "prot"; did you mean "port"?',
    ]);
  });

  it('returns one value per document', () => {
    const text = 'port: 1\n---\nport: 2\n';

    const result = loadYamlDocuments({ file: 'r.yaml', text, schema: Schema, env: {} });

    expect(result.ok && result.value.map((doc) => doc.port)).toEqual([1, 2]);
  });
});
