import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TemplateContext } from './template-variables.js';
import { checkTemplate } from './check-template.js';
import { REPO_DIR } from '../../../test/helpers/shared.js';

// The README's template table is what users copy from: every name it shows must be one the check accepts.
describe('rules/README.md "Templates" and template-variables.ts', () => {
  const readme = readFileSync(join(REPO_DIR, 'rules/README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Templates'), readme.indexOf('### Checked when loaded'));
  const examples = [...section.matchAll(/`([^`]*\{\{[^`]*)`/g)].map((m) => m[1] as string);

  it('the table has examples', () => {
    expect(examples.length).toBeGreaterThan(20);
  });

  const contexts: TemplateContext[] = [
    { source: 'transactions', window: 'count', trace: true },
    { source: 'rewards', window: 'none', trace: false },
    { source: 'transactions', window: 'absent', trace: false },
  ];

  it.each(examples.filter((e) => !e.includes('<') && !e.includes('{{>')))(
    '%s is accepted in some rule',
    (example) => {
      const problems = contexts.map((context) => checkTemplate(example, context));

      expect(
        problems.some((p) => p.length === 0),
        JSON.stringify(problems),
      ).toBe(true);
    },
  );
});
