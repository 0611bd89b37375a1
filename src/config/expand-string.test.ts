import { describe, expect, it } from 'vitest';
import { expandString } from './expand-string.js';

const ENV = { HOST: 'node.test', EMPTY: '', PORT: '5551' };

describe('expandString', () => {
  it.each([
    ['plain text', 'plain text', false],
    ['https://${HOST}:${PORT}/api', 'https://node.test:5551/api', true],
    ['${MISSING:-fallback}', 'fallback', true],
    ['${EMPTY:-fallback}', 'fallback', true],
    ['${EMPTY}', '', true],
    ['${HOST:-}', 'node.test', true],
    ['${MISSING:-a:-b}', 'a:-b', true],
    ['$${HOST}', '${HOST}', true],
    ['$$HOST and $HOST', '$$HOST and $HOST', false],
    ['{{consensus_timestamp}}', '{{consensus_timestamp}}', false],
  ])('%j → %j', (text, value, changed) => {
    const expansion = expandString(text, ENV);

    expect(expansion).toEqual({ value, changed, problems: [] });
  });

  it.each([
    [
      '${MISSING}',
      'environment variable MISSING is not set; set it in the environment, or give a default: ${MISSING:-value}',
    ],
    [
      '${1ST}',
      '"${1ST}" is not a valid environment reference; write ${NAME} or ${NAME:-default}, or $${ for a literal "${"',
    ],
    [
      '${HOST',
      '"${HOST" is not a valid environment reference; write ${NAME} or ${NAME:-default}, or $${ for a literal "${"',
    ],
    [
      '${}',
      '"${}" is not a valid environment reference; write ${NAME} or ${NAME:-default}, or $${ for a literal "${"',
    ],
  ])('%j is a problem', (text, problem) => {
    const expansion = expandString(text, ENV);

    expect(expansion.problems).toEqual([problem]);
  });
});
