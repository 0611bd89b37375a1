import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/observability/metrics.js';
import { REPO_DIR } from '../helpers/shared.js';

describe('docs/metrics.md', () => {
  it('documents every metric the daemon exports, and no metric it does not', async () => {
    const names = (await createMetrics().registry.getMetricsAsJSON()).map((m) => m.name).sort();
    const doc = readFileSync(join(REPO_DIR, 'docs', 'metrics.md'), 'utf8');
    const documented = [...doc.matchAll(/^\| `(ledger_sentinel_[a-z0-9_]+)`/gm)].map((m) => m[1]).sort();

    expect(documented).toEqual(names);
  });
});
