import { describe, expect, it } from 'vitest';
import { isValidLimit, parseQuery, splitOperator, validateQuery, type Filter } from './params.js';

describe('parseQuery', () => {
  it.each([
    ['limit=2', [{ key: 'limit', values: ['2'] }]],
    ['Limit=2&LIMIT=3', [{ key: 'limit', values: ['2', '3'] }]],
    [
      'order=ASC&a=1&ORDER=Desc',
      [
        { key: 'order', values: ['asc', 'desc'] },
        { key: 'a', values: ['1'] },
      ],
    ],
    ['type=CREDIT', [{ key: 'type', values: ['CREDIT'] }]],
    [
      'a=1&&b=2',
      [
        { key: 'a', values: ['1'] },
        { key: 'b', values: ['2'] },
      ],
    ],
    [
      'timestamp=gt%3A1.5&x=a+b',
      [
        { key: 'timestamp', values: ['gt:1.5'] },
        { key: 'x', values: ['a b'] },
      ],
    ],
    ['flag', [{ key: 'flag', values: [''] }]],
    ['bad=%E0%A4%A', [{ key: 'bad', values: ['%E0%A4%A'] }]],
    ['constructor=1&__proto__=2&toString=3&limit=1', [{ key: 'limit', values: ['1'] }]],
  ])('%s', (raw, expected) => {
    expect(parseQuery(raw)).toEqual(expected);
  });
});

describe('splitOperator', () => {
  it.each([
    ['5', { op: 'eq', value: '5' }],
    ['gt:5', { op: 'gt', value: '5' }],
    ['gt:5:9', { op: 'gt', value: '5' }],
    ['foo:5', null],
    [':5', null],
  ])('%s', (raw, expected) => {
    const filter = splitOperator('k', raw);

    expect(filter === null ? null : { op: filter.op, value: filter.value }).toEqual(expected);
  });
});

describe('validateQuery', () => {
  const rules = {
    validators: new Map<string, (f: Filter) => boolean>([
      ['limit', isValidLimit],
      ['order', (f: Filter) => f.value === 'asc' || f.value === 'desc'],
    ]),
    maxRepeated: 3,
  };

  it('reports count-exceeded, then invalid values in query order, then unknown keys', () => {
    const params = parseQuery('foo=1&order=up&limit=0&limit=2&limit=x&bar=2&foo=3&order=a&order=b&order=c');

    const pass = validateQuery(params, rules);

    expect(pass).toEqual({
      ok: false,
      messages: [
        'Parameter values count exceeds maximum number allowed: order count: 4 max: 3',
        'Invalid parameter: limit',
        'Invalid parameter: limit',
        'Unknown query parameter: foo',
        'Unknown query parameter: foo',
        'Unknown query parameter: bar',
      ],
    });
  });

  it('accepts operators on scalars and returns the filters', () => {
    const pass = validateQuery(parseQuery('limit=gt:5&order=eq:asc'), rules);

    expect(pass.ok && pass.filters.map((f) => `${f.key} ${f.op} ${f.value}`)).toEqual([
      'limit gt 5',
      'order eq asc',
    ]);
  });
});
