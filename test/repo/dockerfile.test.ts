// The Dockerfile and .dockerignore, checked without a Docker engine: a small parser plus the rules that matter
// for this image (multi-stage, pinned bases, numeric non-root USER, no ADD, exec-form ENTRYPOINT, the files the
// build copies exist and pass .dockerignore), and the dockerfile-utils validator (flags, ports, JSON forms).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_DIR } from '../helpers/shared.js';

interface Instruction {
  readonly keyword: string;
  readonly args: string;
  readonly line: number;
}

interface Stage {
  readonly image: string;
  readonly name: string | undefined;
  readonly instructions: Instruction[];
}

const DOCKERFILE = readFileSync(join(REPO_DIR, 'Dockerfile'), 'utf8');
const IGNORE = readFileSync(join(REPO_DIR, '.dockerignore'), 'utf8');

/** Instructions with continuation lines joined and comments dropped (no heredocs: the Dockerfile has none). */
function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  let buffer = '';
  let start = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (buffer === '' && (line === '' || line.startsWith('#'))) return;
    if (buffer !== '' && line.startsWith('#')) return;
    if (buffer === '') start = i + 1;
    const continued = line.endsWith('\\');
    buffer += `${continued ? line.slice(0, -1).trimEnd() : line} `;
    if (continued) return;
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(buffer.trim()) ?? [];
    out.push({ keyword: keyword.toUpperCase(), args: args.trim(), line: start });
    buffer = '';
  });
  return out;
}

function stagesOf(instructions: readonly Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const [image = '', as, name] = ins.args.replace(/--platform=\S+\s+/, '').split(/\s+/);
      stages.push({ image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else stages.at(-1)?.instructions.push(ins);
  }
  return stages;
}

/** The JSON array of an exec-form instruction, or undefined for the shell form. */
function execForm(args: string): string[] | undefined {
  if (!args.startsWith('[')) return undefined;
  try {
    const value: unknown = JSON.parse(args);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Strips the leading --flag=value options of COPY/HEALTHCHECK into a map. */
function flagsOf(args: string): { flags: Record<string, string>; rest: string } {
  const flags: Record<string, string> = {};
  let rest = args;
  for (let m = /^--([a-z-]+)(?:=(\S+))?\s+/.exec(rest); m; m = /^--([a-z-]+)(?:=(\S+))?\s+/.exec(rest)) {
    flags[m[1]!] = m[2] ?? 'true';
    rest = rest.slice(m[0].length);
  }
  return { flags, rest };
}

/** Docker's .dockerignore semantics: globs on the path or any parent, `!` re-includes, the last match wins. */
function isIgnored(path: string, ignoreText: string): boolean {
  const patterns = ignoreText
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const parts = path.split('/');
  const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const pattern = (negated ? raw.slice(1) : raw).replace(/^\/+|\/+$/g, '');
    // `**/` is zero or more directories, a remaining `**` anything, `*` and `?` stay within one name.
    const source = pattern
      .split('**/')
      .map((part) => part.split('**').map(globToRegExp).join('.*'))
      .join('(?:.*/)?');
    if (candidates.some((c) => new RegExp(`^${source}$`).test(c))) ignored = !negated;
  }
  return ignored;
}

function globToRegExp(glob: string): string {
  return glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    statSync(join(dir, f)).isFile(),
  );
}

const instructions = parseDockerfile(DOCKERFILE);
const stages = stagesOf(instructions);
const build = stages[0]!;
const runtime = stages.at(-1)!;
const runs = (stage: Stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
const last = (stage: Stage, keyword: string) =>
  stage.instructions.filter((i) => i.keyword === keyword).at(-1);

describe('the Dockerfile parser and .dockerignore matcher (so the checks below can fail)', () => {
  it('joins continuation lines, skips comments and reads stages and exec forms', () => {
    const parsed = parseDockerfile(
      '# c\nFROM a:1 AS one\nRUN x \\\n  # inner\n  && y\nFROM b:2\nCMD ["p", "q"]\n',
    );

    expect(parsed.map((i) => [i.keyword, i.args, i.line])).toEqual([
      ['FROM', 'a:1 AS one', 2],
      ['RUN', 'x && y', 3],
      ['FROM', 'b:2', 6],
      ['CMD', '["p", "q"]', 7],
    ]);
    expect(stagesOf(parsed).map((s) => [s.image, s.name])).toEqual([
      ['a:1', 'one'],
      ['b:2', undefined],
    ]);
    expect(execForm('["p", "q"]')).toEqual(['p', 'q']);
    expect(execForm('ledger-sentinel run')).toBeUndefined();
  });

  it.each([
    ['node_modules/x/index.js', '*\n!src/', true],
    ['src/main.ts', '*\n!src/', false],
    ['src/a.test.ts', '*\n!src/\nsrc/**/*.test.ts', true],
    ['src/cli/a.test.ts', '*\n!src/\nsrc/**/*.test.ts', true],
    ['dist/main.js', 'node_modules\ndist', true],
    ['package.json', 'node_modules\ndist', false],
  ])('%s with %j → ignored %s', (path, patterns, expected) => {
    expect(isIgnored(path, patterns)).toBe(expected);
  });
});

describe('Dockerfile', () => {
  it('is multi-stage: a build stage and a separate runtime stage', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(build.name).toBe('build');
    expect(runtime.instructions.filter((i) => i.keyword === 'COPY' && !i.args.includes('--from='))).toEqual(
      [],
    );
  });

  it.each(stages.map((s) => [s.name ?? '(final)', s.image]))(
    'pins the base image of stage %s by an exact version tag (%s)',
    (_stage, image) => {
      expect(image).toMatch(/^[a-z0-9./-]+:\d+\.\d+\.\d+[-\w.]*(@sha256:[0-9a-f]{64})?$/);
    },
  );

  it('runs on Node 22 LTS, with the same Node version and Debian release in both stages (native module ABI)', () => {
    const [, buildVersion, buildOs] = /^node:(\d+\.\d+\.\d+)-(\w+)/.exec(build.image) ?? [];
    const [, runVersion, runOs] = /^node:(\d+\.\d+\.\d+)-(\w+)/.exec(runtime.image) ?? [];

    expect(runVersion).toMatch(/^22\./);
    expect([buildVersion, buildOs]).toEqual([runVersion, runOs]);
    expect(runtime.image).toMatch(/-slim(@|$)/);
  });

  it('runs as a numeric non-root user and group in the final stage', () => {
    const user = last(runtime, 'USER')?.args ?? '';

    expect(user).toMatch(/^\d+:\d+$/);
    expect(Number(user.split(':')[0])).toBeGreaterThan(0);
  });

  it('uses COPY, never ADD (no remote URLs, no implicit unpacking)', () => {
    expect(
      instructions.filter((i) => i.keyword === 'ADD').map((i) => `line ${i.line}: ADD ${i.args}`),
    ).toEqual([]);
  });

  it('runs `ledger-sentinel run --config /etc/ledger-sentinel/config.yaml` in exec form', () => {
    expect(execForm(last(runtime, 'ENTRYPOINT')?.args ?? '')).toEqual(['ledger-sentinel', 'run']);
    expect(execForm(last(runtime, 'CMD')?.args ?? '')).toEqual([
      '--config',
      '/etc/ledger-sentinel/config.yaml',
    ]);
    expect(runs(runtime).join('\n')).toContain(
      'ln -s /app/bin/ledger-sentinel.js /usr/local/bin/ledger-sentinel',
    );
  });

  it('exposes 9464 and probes /healthz with node in exec form (no curl in the slim image)', () => {
    const healthcheck = flagsOf(last(runtime, 'HEALTHCHECK')?.args ?? '').rest;
    const command = execForm(healthcheck.replace(/^CMD\s+/, '')) ?? [];

    expect(last(runtime, 'EXPOSE')?.args).toBe('9464');
    expect(command[0]).toBe('node');
    expect(command.join(' ')).toContain('http://127.0.0.1:9464/healthz');
    expect(command.join(' ')).not.toMatch(/curl|wget/);
  });

  it('builds better-sqlite3 and re2 from source, compiles TypeScript and prunes dev dependencies', () => {
    const env = build.instructions
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    const script = runs(build).join('\n');

    expect(env).toContain('npm_config_build_from_source=true');
    expect(script).toMatch(/npm ci\b/);
    expect(script).toMatch(/npm rebuild better-sqlite3 re2\b/);
    expect(script).toContain("require('re2')");
    expect(script).toContain('npm run build');
    expect(script).toContain('npm prune --omit=dev');
  });

  it('copies dist, bin, node_modules, package.json and rules from the build stage', () => {
    const copied = runtime.instructions
      .filter((i) => i.keyword === 'COPY')
      .map((i) => flagsOf(i.args))
      .filter((c) => c.flags.from === 'build')
      .map((c) => c.rest.split(/\s+/)[0]);

    expect(copied.sort()).toEqual(
      [
        '/app/bin/',
        '/app/dist/',
        '/app/node_modules/',
        '/app/package.json',
        '/app/packages/ledger-model/dist/',
        '/app/packages/ledger-model/package.json',
        '/app/rules/',
      ].sort(),
    );
  });

  it('does not ship the simulator: the runtime stage copies none of it and its workspace link is removed', () => {
    const runtimeCopies = runtime.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);

    expect(runtimeCopies.filter((args) => /simulator/.test(args))).toEqual([]);
    expect(runs(build).join('\n')).toMatch(
      /npm run build[\s\S]*rm -rf node_modules\/@ledger-sentinel\/simulator/,
    );
  });

  it('keeps state on a volume owned by the runtime user (works with a read-only root filesystem)', () => {
    const uid = (last(runtime, 'USER')?.args ?? '').split(':')[0];

    expect(execForm(last(runtime, 'VOLUME')?.args ?? '')).toEqual(['/var/lib/ledger-sentinel']);
    expect(runs(runtime).join('\n')).toContain(`chown ${uid}:${uid} /var/lib/ledger-sentinel`);
  });

  it('has glibc return freed blocks of 64 KiB and more at once (the RSS the peak bench measures)', () => {
    const env = runtime.instructions
      .filter((i) => i.keyword === 'ENV')
      .flatMap((i) => [...i.args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));

    expect(Object.fromEntries(env)).toMatchObject({
      NODE_ENV: 'production',
      MALLOC_MMAP_THRESHOLD_: '65536',
    });
  });

  it('puts no secret in ENV or ARG', () => {
    const names = instructions
      .filter((i) => i.keyword === 'ENV' || i.keyword === 'ARG')
      .flatMap((i) => [...i.args.matchAll(/(\w+)=/g)].map((m) => m[1]!));

    expect(names.filter((n) => /TOKEN|PASSWORD|SECRET|API_KEY|WEBHOOK/i.test(n))).toEqual([]);
  });

  it('copies from the build context only files that exist and that .dockerignore lets through', () => {
    const sources = instructions
      .filter((i) => i.keyword === 'COPY')
      .map((i) => flagsOf(i.args))
      .filter((c) => c.flags.from === undefined)
      .flatMap((c) => c.rest.split(/\s+/).slice(0, -1));

    const problems = sources.flatMap((src) => {
      const path = join(REPO_DIR, src);
      if (!existsSync(path)) return [`${src} does not exist (docker build would fail on COPY ${src})`];
      const files = statSync(path).isDirectory() ? filesUnder(path).map((f) => join(src, f)) : [src];
      if (files.length === 0)
        return [`${src} is empty: git keeps no empty folder, so COPY ${src} fails in a clone`];
      return isIgnored(src.replace(/\/$/, ''), IGNORE) ? [`${src} is excluded by .dockerignore`] : [];
    });

    expect(problems).toEqual([]);
  });

  it.each([
    'node_modules/x/index.js',
    'dist/main.js',
    '.git/HEAD',
    'helm/ledger-sentinel/values.yaml',
    '.env',
    'src/cli/cli.test.ts',
    'packages/simulator/src/store.test.ts',
    'packages/ledger-model/dist/timestamp.js',
    'packages/simulator/node_modules/x/index.js',
    '.state/state.db',
  ])('.dockerignore keeps %s out of the build context', (path) => {
    expect(isIgnored(path, IGNORE)).toBe(true);
  });
});

describe('dockerfile-utils (the Dockerfile language service validator)', () => {
  it('reports no problems in the Dockerfile', async ({ skip }) => {
    const validate = await loadDockerfileUtils();
    if (typeof validate === 'string') {
      if (process.env.CI === 'true') throw new Error(validate);
      console.log(`dockerfile-utils check skipped: ${validate}`);
      skip(validate);
    }

    const diagnostics = (validate as Validate)(DOCKERFILE, {});

    expect(diagnostics.map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
    expect((validate as Validate)('FROM node:22\nCOPY --chwon=1 a b\n', {}).length).toBe(1);
  });
});

type Validate = (text: string, settings: object) => { message: string; range: { start: { line: number } } }[];

/** The validator, or the reason it cannot be loaded. */
async function loadDockerfileUtils(): Promise<Validate | string> {
  const fallback = process.env.CHECK_TOOLS_NODE_MODULES;
  const local = fallback ? join(fallback, 'dockerfile-utils', 'lib', 'main.js') : '';
  try {
    const mod = (await import(
      local && existsSync(local) ? pathToFileURL(local).href : 'dockerfile-utils'
    )) as {
      validate: Validate;
    };
    return mod.validate;
  } catch (err) {
    return `add the devDependency dockerfile-utils (npm install -D dockerfile-utils): ${(err as Error).message}`;
  }
}
