// The Node.js lines the project runs on are said once (README.md) and agree everywhere: `.nvmrc` is the image's
// major, package.json `engines` admits both tested lines, and every installed package admits the lowest version
// of each line `engines` names, so that `npm ci` prints no EBADENGINE warning on either.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { REPO_DIR } from '../helpers/shared.js';

const read = (file: string) => readFileSync(join(REPO_DIR, file), 'utf8');
const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
const imageVersion = /^FROM node:(\d+)\.(\d+)\.(\d+)-\S+ AS runtime$/m.exec(read('Dockerfile'));
/** The lowest version of each line `engines` admits, e.g. ^20.19.0 || ^22.13.0 → 20.19.0, 22.13.0. */
const lowest = engines.split('||').map((range) => semver.minVersion(range.trim())!.version);

describe('Node.js versions', () => {
  it('.nvmrc is the major of the Node.js the Docker image runs', () => {
    expect(imageVersion, 'no "FROM node:X.Y.Z-… AS runtime" line in the Dockerfile').not.toBeNull();

    expect(read('.nvmrc').trim()).toBe(imageVersion![1]);
  });

  it('engines admits the image, the machines (this Node.js) and nothing older than the lines README names', () => {
    const readme = read('README.md');

    expect(semver.satisfies(imageVersion![0].split(/[:-]/)[1]!, engines)).toBe(true);
    expect(semver.satisfies(process.versions.node, engines)).toBe(true);
    expect(lowest.map((v) => semver.major(v))).toEqual([20, 22]);
    for (const v of lowest) expect(readme).toContain(`Node.js ${semver.major(v)} `.trimEnd());
    expect(readme).toMatch(/Node\.js 20 reached its end of life in April 2026/);
  });

  it.each(lowest)(
    'every package in package-lock.json admits Node.js %s (no EBADENGINE from npm ci)',
    (version) => {
      const lock = JSON.parse(read('package-lock.json')) as {
        packages: Record<string, { version?: string; engines?: unknown }>;
      };

      const refusing = Object.entries(lock.packages)
        .filter(([, p]) => {
          const node = (p.engines as { node?: unknown } | undefined)?.node;
          return typeof node === 'string' && !semver.satisfies(version, node);
        })
        .map(
          ([path, p]) =>
            `${path}@${p.version ?? '?'} wants node ${String((p.engines as { node: string }).node)}`,
        );

      expect(refusing).toEqual([]);
    },
  );
});
