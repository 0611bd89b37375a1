// Names the query service defines (transaction types, result codes). The service grows them with each release,
// so a rule may name one this version's table does not know yet: a name shaped like the service's (upper-case
// letters, digits, underscores) is accepted with a warning naming the closest known one; only a name the
// service could never send (lower case, spaces) is an error. A newer service never makes a valid rule invalid.
import { z } from 'zod';
import { didYouMean } from '../../../config/did-you-mean.js';
import type { ConditionWarning } from './condition.js';
import { suggest } from './suggest.js';

const SERVICE_SHAPE = /^[A-Z][A-Z0-9_]*$/;

export interface ServiceNames {
  /** "transaction type", "result name". */
  readonly what: string;
  readonly known: ReadonlySet<string>;
  /** For the error when nothing is close: "CRYPTOTRANSFER or CONTRACTCALL". */
  readonly examples: string;
}

/** One name: known, or shaped like the service's (then `unknownNames` warns about it). */
export function serviceName(names: ServiceNames): z.ZodType<string> {
  return z.string().refine((name) => names.known.has(name) || SERVICE_SHAPE.test(name), {
    error: (i) =>
      `unknown ${names.what} ${JSON.stringify(i.input)}; ${suggest(String(i.input), [...names.known], names.examples)}`,
  });
}

/** A warning for each listed name this version does not know, at its index in the list. */
export function unknownNames(list: readonly string[], names: ServiceNames): ConditionWarning[] {
  return list.flatMap((name, index) => {
    if (names.known.has(name)) return [];
    const guess = didYouMean(name, [...names.known]);
    const closest = guess ? `the closest known is ${guess}` : `nothing known is close`;
    return [
      {
        at: [index],
        message:
          `${names.what} ${JSON.stringify(name)} is not known to this version (${closest}); the rule matches it ` +
          `only if the query service sends that name (a newer service may): check the spelling`,
      },
    ];
  });
}
