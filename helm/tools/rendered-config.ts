// The config and rule files a rendered chart gives the pod, written to a folder with the pod's mount paths
// (/etc/ledger-sentinel/…) moved under it, and checked with the daemon's own `ledger-sentinel check --offline`:
// what the pod would load, without a cluster. check-chart.ts and the tests use it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse, stringify } from 'yaml';
import { runCli } from '../../src/cli/cli.js';
import type { RenderResult } from './render-chart.js';

const ETC = '/etc/ledger-sentinel';

export interface PodFiles {
  readonly dir: string;
  readonly configPath: string;
  /** The config as the pod reads it (a parsed copy). */
  readonly config: Record<string, unknown>;
  /** The environment the pod's config can refer to (${VAR}): every env name of the container, with stand-ins. */
  readonly env: Record<string, string>;
  /** The rules come from rules.existingConfigMap: not rendered, so not checked (an empty stand-in is). */
  readonly rulesNotRendered: boolean;
}

/**
 * Writes config.yaml and the rule files of the chart's ConfigMaps under `dir` (a new temporary folder by
 * default); every path under /etc/ledger-sentinel in the config is moved under it. Secret files are not written
 * (`check --offline` checks their keys, not their content). `edit` may change the config first (a test points
 * it at a local ledger).
 */
export function writePodFiles(
  result: RenderResult,
  options: { dir?: string; edit?: (config: Record<string, unknown>) => void } = {},
): PodFiles {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'ledger-sentinel-pod-'));
  const configMaps = result.manifests.filter((m) => m.object.kind === 'ConfigMap');
  const data = (suffix: string) =>
    configMaps.find((m) => String((m.object.metadata as { name?: string }).name).endsWith(suffix))?.object
      .data as Record<string, string> | undefined;
  const configText = data('-config')?.['config.yaml'];
  if (configText === undefined)
    throw new Error('the chart rendered no config ConfigMap (existingConfigMap set?)');
  const moved = configText.replaceAll(`${ETC}/`, `${dir}/`);
  const config = parse(moved) as Record<string, unknown>;
  options.edit?.(config);
  mkdirSync(join(dir, 'rules'), { recursive: true });
  const rules = data('-rules');
  for (const [file, text] of Object.entries(rules ?? {})) writeFileSync(join(dir, 'rules', file), text);
  // rules.existingConfigMap: the rule files are not in the chart; an empty stand-in lets the config be checked.
  if (rules === undefined)
    writeFileSync(
      join(dir, 'rules', 'existing-configmap.yaml'),
      'rules:\n  - { id: stand-in, enabled: false, summary: stand-in }\n',
    );
  const configPath = join(dir, 'config.yaml');
  writeFileSync(configPath, stringify(config));
  return { dir, configPath, config, env: podEnv(result), rulesNotRendered: rules === undefined };
}

function podEnv(result: RenderResult): Record<string, string> {
  const deployment = result.manifests.find((m) => m.object.kind === 'Deployment')?.object as
    { spec: { template: { spec: { containers: { env?: { name: string }[] }[] } } } } | undefined;
  const names = deployment?.spec.template.spec.containers[0]?.env?.map((e) => e.name) ?? [];
  return Object.fromEntries(names.map((name) => [name, name === 'POD_IP' ? '10.0.0.1' : `stand-in-${name}`]));
}

export interface CheckOutcome {
  readonly code: number;
  readonly output: string;
}

/** `ledger-sentinel check --offline --config <config.yaml>`, in this process, as the daemon's CLI runs it. */
export async function checkPodFiles(files: PodFiles): Promise<CheckOutcome> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let output = '';
  stdout.on('data', (d: Buffer) => (output += d.toString()));
  stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await runCli({
    argv: ['check', '--offline', '--config', files.configPath],
    env: files.env,
    stdout,
    stderr,
    cwd: files.dir,
    signal: new AbortController().signal,
  });
  return { code, output: output.replaceAll(`${files.dir}/`, `${ETC}/`) };
}
