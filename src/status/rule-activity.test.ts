import { describe, expect, it } from 'vitest';
import { createRuleActivity } from './rule-activity.js';

describe('rule activity', () => {
  it('adds the matches of each committed page and keeps the time of the last one', () => {
    let now = 1000;
    const activity = createRuleActivity(() => now);

    activity.matched(
      new Map([
        ['a', 2],
        ['b', 0],
      ]),
    );
    now = 2000;
    activity.matched(new Map([['a', 1]]));

    expect([...activity.entries()]).toEqual([['a', { matches: 3, lastMatchAt: 2000 }]]);
  });

  it('forgets rules a reload removed', () => {
    const activity = createRuleActivity(() => 1);
    activity.matched(
      new Map([
        ['a', 1],
        ['b', 1],
      ]),
    );

    activity.keepOnly(new Set(['b']));

    expect([...activity.entries().keys()]).toEqual(['b']);
  });
});
