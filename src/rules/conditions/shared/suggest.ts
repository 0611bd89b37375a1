import { didYouMean } from '../../../config/did-you-mean.js';

/** `did you mean "SUCCESS"?`, or `expected a name like <examples>` when nothing is close. */
export function suggest(word: string, candidates: readonly string[], examples: string): string {
  const guess = didYouMean(word, candidates);
  return guess ? `did you mean "${guess}"?` : `expected a name like ${examples}`;
}
