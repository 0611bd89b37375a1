// rules/rules.schema.json, generated from the zod schema so editors (yaml-language-server) check rule files.
// json-schema.test.ts fails when the committed file is stale; `npm run rules:schema` rewrites it.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { RuleFile } from './schema.js';

export const JSON_SCHEMA_PATH = fileURLToPath(new URL('../../../rules/rules.schema.json', import.meta.url));

export function ruleFileJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(RuleFile, { io: 'input', unrepresentable: 'any' }),
    title: 'ledger-sentinel rule file',
    description: 'Rules for ledger-sentinel; the language is described in rules/README.md.',
  };
}

export function writeRuleFileJsonSchema(path = JSON_SCHEMA_PATH): void {
  writeFileSync(path, `${JSON.stringify(ruleFileJsonSchema(), null, 2)}\n`);
}
