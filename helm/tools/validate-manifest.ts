// Validates rendered manifests against the Kubernetes OpenAPI schemas that the npm packages kubernetes-models
// (core API, generated from Kubernetes' own OpenAPI spec) and @kubernetes-models/prometheus-operator (the
// Prometheus Operator CRDs) ship as compiled validators. Those validators check types, required fields, enums
// and formats but let unknown fields through; kubectl's server-side validation would reject them, so the
// validator runs on a Proxy that records which fields the schema knows (it reads every declared property and
// enumerates map-typed objects), and a field it never looked at is reported as unknown.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const SCHEMA_PACKAGES = ['kubernetes-models', '@kubernetes-models/prometheus-operator'] as const;

/** apiVersion/kind → [module specifier, export name]. Add a line when the chart renders a new kind. */
const KINDS: Readonly<Record<string, readonly [string, string]>> = {
  'v1/ConfigMap': ['kubernetes-models/v1', 'ConfigMap'],
  'v1/Service': ['kubernetes-models/v1', 'Service'],
  'v1/ServiceAccount': ['kubernetes-models/v1', 'ServiceAccount'],
  'v1/PersistentVolumeClaim': ['kubernetes-models/v1', 'PersistentVolumeClaim'],
  'apps/v1/Deployment': ['kubernetes-models/apps/v1', 'Deployment'],
  'policy/v1/PodDisruptionBudget': ['kubernetes-models/policy/v1', 'PodDisruptionBudget'],
  'monitoring.coreos.com/v1/ServiceMonitor': [
    '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
    'ServiceMonitor',
  ],
  'monitoring.coreos.com/v1/PrometheusRule': [
    '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
    'PrometheusRule',
  ],
};

type Validate = (this: unknown) => void;
export type ManifestValidator = (manifest: Record<string, unknown>) => string[];

/**
 * Loads the schema validators. modulesDir is an extra node_modules folder to load them from (for trying the
 * check before the packages are devDependencies); throws naming the packages to install when they are missing.
 */
export async function loadManifestValidator(modulesDir?: string): Promise<ManifestValidator> {
  const validators = new Map<string, Validate>();
  for (const [key, [specifier, name]] of Object.entries(KINDS)) {
    const mod = (await importFrom(specifier, modulesDir)) as Record<
      string,
      { prototype: { validate: Validate } }
    >;
    const model = mod[name];
    if (!model) throw new Error(`${specifier} has no export ${name}`);
    validators.set(key, model.prototype.validate);
  }
  return (manifest) => validateWith(validators, manifest);
}

async function importFrom(specifier: string, modulesDir: string | undefined): Promise<unknown> {
  try {
    return await import(specifier);
  } catch (err) {
    const local = modulesDir ? join(modulesDir, specifier, 'index.js') : undefined;
    if (local && existsSync(local)) return import(pathToFileURL(local).href);
    throw new Error(
      `cannot load the Kubernetes schemas (${specifier}): add the devDependencies ${SCHEMA_PACKAGES.join(' and ')}` +
        ` (npm install -D ${SCHEMA_PACKAGES.join(' ')}). ${(err as Error).message}`,
    );
  }
}

function validateWith(validators: Map<string, Validate>, manifest: Record<string, unknown>): string[] {
  const key = `${String(manifest.apiVersion)}/${String(manifest.kind)}`;
  const validate = validators.get(key);
  if (!validate)
    return [`${key}: no schema for this kind; add it to KINDS in helm/tools/validate-manifest.ts`];
  const seen = { read: new Set<string>(), enumerated: new Set<string>() };
  const errors: string[] = [];
  try {
    validate.call(track(manifest, '', seen));
  } catch (err) {
    errors.push((err as Error).message);
  }
  return [...errors, ...unknownFields(manifest, '', seen)];
}

interface Seen {
  read: Set<string>;
  enumerated: Set<string>;
}

function track(value: unknown, path: string, seen: Seen): unknown {
  if (value === null || typeof value !== 'object') return value;
  return new Proxy(value, {
    get(target, prop, receiver) {
      const result: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string') return result;
      seen.read.add(`${path}/${prop}`);
      return track(result, `${path}/${prop}`, seen);
    },
    ownKeys(target) {
      seen.enumerated.add(path);
      return Reflect.ownKeys(target);
    },
  });
}

/** Fields of schema-typed objects that the schema never read; free-form objects (nothing read) are skipped. */
function unknownFields(value: unknown, path: string, seen: Seen): string[] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Object.entries(value);
  const typed = !Array.isArray(value) && !seen.enumerated.has(path) && hasReadChild(path, seen);
  const own = typed
    ? entries
        .filter(([k]) => !seen.read.has(`${path}/${k}`))
        .map(([k]) => `${path || '/'}: unknown field "${k}"`)
    : [];
  return [...own, ...entries.flatMap(([k, v]) => unknownFields(v, `${path}/${k}`, seen))];
}

function hasReadChild(path: string, seen: Seen): boolean {
  const prefix = `${path}/`;
  for (const p of seen.read) if (p.startsWith(prefix) && !p.slice(prefix.length).includes('/')) return true;
  return false;
}
