// Builds helm/tools/render (Go) offline against Debian's Go packages: golang-go, golang-github-masterminds-sprig-dev
// and its dependencies under /usr/share/gocode/src. Debian ships sprig v3 at the GOPATH path without /v3, so a
// plain GOPATH build cannot resolve it; instead a throwaway module gets a vendor/ tree of symlinks into
// /usr/share/gocode and is built with -mod=vendor and GOPROXY=off (no network).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RENDER_SOURCE_DIR = resolve(fileURLToPath(new URL('./render', import.meta.url)));
const GOCODE = '/usr/share/gocode/src';

/** Module path → [directory under /usr/share/gocode/src, version label, packages used, explicit in go.mod]. */
const MODULES: readonly (readonly [string, string, string, readonly string[], boolean])[] = [
  ['github.com/Masterminds/goutils', 'github.com/Masterminds/goutils', 'v1.1.1', [''], false],
  ['github.com/Masterminds/semver/v3', 'github.com/Masterminds/semver', 'v3.2.0', [''], false],
  ['github.com/Masterminds/sprig/v3', 'github.com/Masterminds/sprig', 'v3.2.3', [''], true],
  ['github.com/google/uuid', 'github.com/google/uuid', 'v1.3.0', [''], false],
  ['github.com/huandu/xstrings', 'github.com/huandu/xstrings', 'v1.3.3', [''], false],
  ['github.com/imdario/mergo', 'github.com/imdario/mergo', 'v0.3.13', [''], false],
  ['github.com/mitchellh/copystructure', 'github.com/mitchellh/copystructure', 'v1.2.0', [''], false],
  ['github.com/mitchellh/reflectwalk', 'github.com/mitchellh/reflectwalk', 'v1.0.2', [''], false],
  ['github.com/shopspring/decimal', 'github.com/shopspring/decimal', 'v1.3.1', [''], false],
  ['github.com/spf13/cast', 'github.com/spf13/cast', 'v1.5.0', [''], false],
  [
    'golang.org/x/crypto',
    'golang.org/x/crypto',
    'v0.0.0',
    ['/bcrypt', '/blowfish', '/pbkdf2', '/scrypt'],
    false,
  ],
  ['gopkg.in/yaml.v2', 'gopkg.in/yaml.v2', 'v2.4.0', [''], true],
];

export const APT_PACKAGES = ['golang-go', 'golang-github-masterminds-sprig-dev', 'golang-gopkg-yaml.v2-dev'];

export interface BuildRendererOptions {
  /** Where built binaries are cached, keyed by a hash of the Go sources. */
  readonly cacheDir?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** The path of the `go` binary, or undefined when Go is not installed. */
export function findGo(env: NodeJS.ProcessEnv = {}): string | undefined {
  const dirs = [...(env.PATH ?? '').split(':'), '/usr/bin', '/usr/lib/go/bin', '/usr/local/go/bin'];
  return dirs
    .filter((d) => d !== '')
    .map((d) => join(d, 'go'))
    .find((p) => existsSync(p));
}

/** Builds the renderer (or reuses the cached binary) and returns the binary's path; throws with a fix on failure. */
export function buildRenderer(options: BuildRendererOptions = {}): string {
  const env = options.env ?? {};
  const go = findGo(env);
  if (!go) throw new Error(`go is not installed: apt-get install ${APT_PACKAGES.join(' ')}`);
  const missing = MODULES.filter(([, dir]) => !existsSync(join(GOCODE, dir))).map(([m]) => m);
  if (missing.length > 0)
    throw new Error(
      `Go packages missing under ${GOCODE} (${missing.join(', ')}): apt-get install ${APT_PACKAGES.join(' ')}`,
    );
  const sources = readdirSync(RENDER_SOURCE_DIR)
    .filter((f) => f.endsWith('.go'))
    .sort();
  const hash = createHash('sha256');
  for (const f of sources) hash.update(f).update(readFileSync(join(RENDER_SOURCE_DIR, f)));
  const cacheDir = options.cacheDir ?? join(tmpdir(), 'ledger-sentinel-helm-render');
  const binary = join(cacheDir, `helm-render-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(binary)) return binary;
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'helm-render-build-'));
  try {
    for (const f of sources) writeFileSync(join(work, f), readFileSync(join(RENDER_SOURCE_DIR, f)));
    writeVendorTree(work);
    const tmp = `${binary}.${process.pid}.tmp`;
    execFileSync(go, ['build', '-o', tmp, '.'], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: env.PATH ?? '/usr/bin:/bin',
        HOME: env.HOME ?? work,
        GOCACHE: join(cacheDir, 'gocache'),
        GOPATH: join(work, 'gopath'),
        GOFLAGS: '-mod=vendor',
        GOPROXY: 'off',
        GO111MODULE: 'on',
        GOTOOLCHAIN: 'local',
        CGO_ENABLED: '0',
      },
    });
    renameSync(tmp, binary);
    return binary;
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`building ${RENDER_SOURCE_DIR} with ${go} failed:\n${stderr || String(err)}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function writeVendorTree(work: string): void {
  const explicit = MODULES.filter((m) => m[4]).map(([mod, , version]) => `\t${mod} ${version}\n`);
  writeFileSync(join(work, 'go.mod'), `module helmrender\n\ngo 1.16\n\nrequire (\n${explicit.join('')})\n`);
  const lines: string[] = [];
  for (const [mod, dir, version, pkgs, isExplicit] of MODULES) {
    const link = join(work, 'vendor', mod);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(GOCODE, dir), link);
    lines.push(`# ${mod} ${version}`, ...(isExplicit ? ['## explicit'] : []), ...pkgs.map((p) => mod + p));
  }
  writeFileSync(join(work, 'vendor', 'modules.txt'), `${lines.join('\n')}\n`);
}
