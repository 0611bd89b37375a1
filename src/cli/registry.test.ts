import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './registry.js';

const DIR = fileURLToPath(new URL('.', import.meta.url));

/** The files of src/cli that define a subcommand (`export const x: Command = …`), by file name. */
function commandFiles(): string[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .filter((f) => /^export const \w+: Command = /m.test(readFileSync(`${DIR}/${f}`, 'utf8')))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
}

describe('the command registry', () => {
  it('lists exactly the commands defined in src/cli, each named after its file', () => {
    const files = commandFiles();

    const registered = COMMANDS.map((c) => c.name).sort();

    expect(files.length).toBeGreaterThan(5);
    expect(registered).toEqual(files);
  });
});
