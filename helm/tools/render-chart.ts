// Runs the helm-render binary on the chart and parses its manifests the way the Kubernetes API server's YAML
// decoder does (YAML 1.1: 0440 is octal), rejecting duplicate keys.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const CHART_DIR = resolve(fileURLToPath(new URL('../ledger-sentinel', import.meta.url)));
export const CI_VALUES = resolve(CHART_DIR, 'ci', 'all-features-values.yaml');

export interface Manifest {
  /** The template it came from, e.g. ledger-sentinel/templates/deployment.yaml. */
  readonly source: string;
  readonly content: string;
  readonly object: Record<string, unknown>;
}

export interface RenderResult {
  readonly manifests: readonly Manifest[];
  readonly notes: string;
}

export interface RenderChartOptions {
  readonly binary: string;
  readonly chartDir?: string;
  readonly valuesFiles?: readonly string[];
  readonly releaseName?: string;
  readonly namespace?: string;
  /** API versions the pretend cluster serves besides the built-in ones, e.g. monitoring.coreos.com/v1. */
  readonly apiVersions?: readonly string[];
  /** Fail on a reference to a value that does not exist (`helm lint --strict`): catches misspelt .Values paths. */
  readonly strict?: boolean;
}

/** Renders the chart; throws the renderer's own message (template file and line) when rendering fails. */
export function renderChart(options: RenderChartOptions): RenderResult {
  const args = [
    '--json',
    '--chart',
    options.chartDir ?? CHART_DIR,
    '--name',
    options.releaseName ?? 'ledger-sentinel',
    '--namespace',
    options.namespace ?? 'monitoring',
    '--api-versions',
    (options.apiVersions ?? []).join(','),
    ...(options.strict ? ['--strict'] : []),
    ...(options.valuesFiles ?? []).flatMap((f) => ['--values', f]),
  ];
  let stdout: string;
  try {
    stdout = execFileSync(options.binary, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? String(err);
    throw new Error(stderr.trim());
  }
  const raw = JSON.parse(stdout) as { manifests: { source: string; content: string }[]; notes: string };
  const manifests = raw.manifests.map((m) => ({
    ...m,
    object: parse(m.content, { version: '1.1', uniqueKeys: true }) as Record<string, unknown>,
  }));
  return { manifests, notes: raw.notes };
}

/** The one manifest of a kind (and name, when given); throws listing what was rendered otherwise. */
export function findManifest(result: RenderResult, kind: string, name?: string): Record<string, unknown> {
  const found = result.manifests.filter(
    (m) => m.object.kind === kind && (name === undefined || metadataName(m.object) === name),
  );
  if (found.length !== 1) {
    const have = result.manifests.map((m) => `${String(m.object.kind)}/${metadataName(m.object)}`);
    throw new Error(`expected one ${kind}${name ? `/${name}` : ''}, rendered: ${have.join(', ')}`);
  }
  return found[0]!.object;
}

function metadataName(object: Record<string, unknown>): string {
  return String((object.metadata as { name?: unknown } | undefined)?.name);
}
