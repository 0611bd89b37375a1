import { describe, expect, it } from 'vitest';
import { ConfigError, formatIssue, sortIssues, type ConfigIssue } from './config-error.js';

const issue = (line: number, col: number, path: string, message = 'bad'): ConfigIssue => ({
  file: 'config.yaml',
  line,
  col,
  path,
  message,
});

describe('formatIssue', () => {
  it.each([
    [
      issue(14, 5, 'notifiers.ops.webhook_url', 'expected a URL'),
      'config.yaml:14:5 notifiers.ops.webhook_url: expected a URL',
    ],
    [issue(3, 1, '', 'duplicate key'), 'config.yaml:3:1 duplicate key'],
    [issue(0, 0, '', 'cannot read the config file'), 'config.yaml: cannot read the config file'],
    [issue(0, 0, 'ledger', 'is wrong'), 'config.yaml: ledger: is wrong'],
  ])('%j', (input, expected) => {
    const text = formatIssue(input);

    expect(text).toBe(expected);
  });
});

describe('sortIssues', () => {
  it('orders by line then column and keeps ties in their order', () => {
    const issues = [issue(9, 1, 'c'), issue(2, 7, 'b'), issue(2, 3, 'a'), issue(2, 7, 'b2')];

    const sorted = sortIssues(issues);

    expect(sorted.map((i) => i.path)).toEqual(['a', 'b', 'b2', 'c']);
  });
});

describe('ConfigError', () => {
  it('lists every issue, one per line', () => {
    const issues = [issue(1, 1, 'a', 'first'), issue(2, 3, 'b', 'second')];

    const error = new ConfigError(issues);

    expect(error.message).toBe('config.yaml:1:1 a: first\nconfig.yaml:2:3 b: second');
    expect(error.issues).toBe(issues);
  });
});
