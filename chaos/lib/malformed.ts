// 200 malformed files for scenario 5: 100 config files and 100 rule files, from templates of the usual mistakes
// (YAML syntax, wrong types, unknown keys, bad amounts, bad ids, bad durations and URLs). A variant number shifts
// each mistake down by some comment lines and changes its value, so positions and texts differ file to file.
export interface MalformedCase {
  readonly name: string;
  readonly kind: 'config' | 'rules';
  readonly text: string;
}

export function validConfig(
  rulePath: string,
  stateDir: string,
  body: Partial<Record<string, string>> = {},
): string {
  return [
    body.ledger ?? 'ledger:\n  base_url: http://127.0.0.1:9',
    body.accounts ?? 'accounts:\n  - { id: 0.0.1001, name: hot }\n  - { id: 0.0.1002, name: cold }',
    body.tail ?? 'tail: { poll_interval: 2s, overlap: 10s }',
    `rules: { paths: [${rulePath}] }`,
    body.notifiers ?? 'notifiers:\n  ops: { kind: slack, webhook_url: "http://127.0.0.1:9/services/T/B/x" }',
    `state: { dir: ${stateDir} }`,
    body.extra ?? '',
  ].join('\n');
}

export const VALID_RULES = `rules:
  - id: large-debit
    summary: "{{account.name}} debited"
    when: { debit: "1000 hbar", result: success }
    notify: [ops]
`;

const CONFIG_MISTAKES: readonly ((v: number) => Partial<Record<string, string>>)[] = [
  (v) => ({ ledger: `ledger:\n  base_url: [http://127.0.0.1:${v}` }), // unclosed flow sequence
  (v) => ({ accounts: `accounts:\n  - { id: 0.0.${1000 + v}, name: "hot }` }), // unterminated quote
  (v) => ({ tail: `tail:\n  poll_interval: 2s\n\tjitter: 0.${v}` }), // tab indentation
  (v) => ({ tail: `tail: { poll_interval: ${v} }` }), // number for a duration
  (v) => ({ tail: `tail: { poll_intervall: ${v}s }` }), // unknown key (typo)
  (v) => ({ tail: `tail: { overlap: ${v} seconds }` }), // bad duration
  (v) => ({ tail: `tail: { strategy: globall${v} }` }), // bad enum
  (v) => ({ ledger: `ledger:\n  base_url: not-a-url-${v}` }), // bad URL
  (v) => ({ ledger: `ledger:\n  base_url: http://127.0.0.1:9\n  requests_per_second: fast${v}` }), // wrong type
  (v) => ({ accounts: `accounts:\n  - { id: 0.0.abc${v} }` }), // bad id
  (v) => ({ accounts: `accounts:\n  - { id: -${v} }` }), // negative id
  (v) => ({ accounts: `accounts:\n  - { id: 0.0.1${'9'.repeat(20 + v)} }` }), // id out of range
  (v) => ({ accounts: `accounts: { id: 0.0.${1000 + v} }` }), // mapping instead of list
  (v) => ({ accounts: `accounts:\n  - { id: 0.0.${1000 + v}, priority: high }` }), // wrong type
  (v) => ({ notifiers: `notifiers:\n  ops: { kind: slak${v}, webhook_url: "http://x/${v}" }` }), // unknown kind
  (v) => ({
    notifiers: `notifiers:\n  ops: { kind: slack, webhook_url: "http://127.0.0.1:9/x", min_interval: ${v}x }`,
  }),
  (v) => ({
    notifiers: `notifiers:\n  ops: { kind: email, host: smtp.example, from: a@b, to: [x], port: "p${v}" }`,
  }),
  (v) => ({ extra: `http: { port: ${70_000 + v} }` }), // port out of range
  (v) => ({ extra: `log: { level: loud${v} }` }), // bad enum
  (v) => ({ extra: `unknown_section_${v}: true` }), // unknown top-level key
];

const RULE_MISTAKES: readonly ((v: number) => string)[] = [
  (v) => `    when: { debit: "${v} hbarz" }`, // bad unit
  (v) => `    when: { debit: ${v}.5 }`, // float amount
  (v) => `    when: { debit: "-${v} hbar" }`, // negative
  (v) => `    when: { debit: "1.${'1'.repeat(9 + (v % 3))} hbar" }`, // too many decimals
  (v) => `    when: { counterparty: { in: [0.0.x${v}] } }`, // bad id
  (v) => `    when: { payer: 0.0.${v}.5 }`, // bad id
  (v) => `    when: { memo: { regex: "([a-z${v}" } }`, // bad regex
  (v) => `    when: { typ: CRYPTOTRANSFER${v} }`, // unknown condition key
  (v) => `    when: { type: CRYPTOTRANSFERR${v} }`, // unknown transaction type
  (v) => `    when: { result: SUCCESSS${v} }`, // unknown result
  (v) => `    severity: loud${v}`, // bad enum
  (v) => `    throttle: ${v} minutes`, // bad duration
  (v) => `    notify: [opz${v}]`, // unknown notifier
  (v) => `    window: { duration: 10m, count: -${v} }`, // bad count
  (v) => `    group_by: [acount${v}]`, // bad group key
  (v) => `    accounts: { ids: [0.0.${5000 + v}] }`, // not watched
  (v) => `    when: { debit: "${v} hbar" ]`, // YAML syntax
  (v) => `    when:\n\t  debit: "${v} hbar"`, // tab
  (v) => `    summary: "{{#unclosed${v}}}"`, // bad template
  (v) => `    labels: [x${v}]`, // wrong type
];

function padding(v: number): string {
  return Array.from({ length: v % 4 }, (_, i) => `# padding ${i}`).join('\n');
}

export function malformedCases(): MalformedCase[] {
  const cases: MalformedCase[] = [];
  for (let v = 0; v < 5; v++) {
    CONFIG_MISTAKES.forEach((mistake, m) =>
      cases.push({
        name: `config-${m}-${v}.yaml`,
        kind: 'config',
        text: `${padding(v)}\n${validConfig('RULES', 'STATE', mistake(v + 1))}`,
      }),
    );
    RULE_MISTAKES.forEach((mistake, m) => {
      const bad = mistake(v + 1);
      const keep = ['summary: "s"', 'notify: [ops]'].filter(
        (line) => !bad.trim().startsWith(line.split(':')[0] as string),
      );
      const lines = [`  - id: rule-${m}-${v}`, ...keep.map((line) => `    ${line}`), bad];
      cases.push({
        name: `rules-${m}-${v}.yaml`,
        kind: 'rules',
        text: `${padding(v)}\nrules:\n${lines.join('\n')}\n`,
      });
    });
  }
  return cases;
}
