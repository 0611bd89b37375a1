import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './registry.js';

const DIR = fileURLToPath(new URL('.', import.meta.url));

/** The folders of src/cli whose `<folder>/<folder>.ts` defines a subcommand (`export const x: Command = …`). */
function commandFiles(): string[] {
  return readdirSync(DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(`${DIR}/${d.name}/${d.name}.ts`))
    .map((d) => d.name)
    .filter((d) => /^export const \w+: Command = /m.test(readFileSync(`${DIR}/${d}/${d}.ts`, 'utf8')))
    .sort();
}

describe('the command registry', () => {
  it('lists exactly the commands defined in src/cli, each named after its folder', () => {
    const files = commandFiles();

    const registered = COMMANDS.map((c) => c.name).sort();

    expect(files.length).toBeGreaterThan(5);
    expect(registered).toEqual(files);
  });
});
