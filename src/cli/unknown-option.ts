import { didYouMean } from '../config/did-you-mean.js';

/** Every `--option` a usage text lists (lines starting with it, under "Options:"), plus --help. */
export function optionsOf(usage: string): string[] {
  const listed = [...usage.matchAll(/^\s+(--[a-z][a-z0-9-]*)/gm)].map((m) => m[1] as string);
  return [...new Set([...listed, '--help'])];
}

/**
 * The first `--option` in argv the usage does not list, as a message with the nearest listed one. Checked before
 * the command parses its arguments, so a typo gets a suggestion rather than the parser's generic complaint.
 */
export function unknownOption(argv: readonly string[], usage: string): string | undefined {
  const known = optionsOf(usage);
  for (const arg of argv) {
    if (arg === '--') return undefined;
    if (!arg.startsWith('--')) continue;
    const name = arg.split('=')[0] as string;
    if (known.includes(name)) continue;
    const guess = didYouMean(
      name.slice(2),
      known.map((k) => k.slice(2)),
    );
    return `unknown option ${name}.${guess ? ` Did you mean --${guess}?` : ''}`;
  }
  return undefined;
}
