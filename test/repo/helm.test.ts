// The Helm chart, checked without helm (docs/deployment.md): rendered by helm/tools/render for the default and
// CI values, validated against Kubernetes schemas, values.schema.json, promtool and the daemon's config schema.
// In CI (CI=true) a missing tool fails with the fix; locally the affected tests are skipped and say why.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/config/config-error.js';
import { REPO_DIR } from '../helpers/shared.js';
import { loadYaml } from '../../src/config/load-yaml.js';
import { CONFIG_SECTIONS, Config } from '../../src/config-file/schema.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { APT_PACKAGES, buildRenderer, findGo } from '../../helm/tools/build-renderer.js';
import { coalesceValues, compileValuesSchema, readValues } from '../../helm/tools/chart-values.js';
import { CI_VALUES, findManifest, renderChart, type RenderResult } from '../../helm/tools/render-chart.js';
import {
  dashboardQueriesAsRules,
  dashboardWithoutNamespace,
  promtoolAvailable,
  RULE_TESTS,
  runPromtool,
} from '../../helm/tools/prometheus-rules.js';
import { loadManifestValidator, type ManifestValidator } from '../../helm/tools/validate-manifest.js';
import { checkPodFiles, writePodFiles } from '../../helm/tools/rendered-config.js';
import { unmountedFileRefs } from '../../helm/tools/pod-file-refs.js';

/** config.example.yaml as a user would paste it under config:, without state, http and ha (the chart sets them). */
function exampleConfig(): Record<string, unknown> {
  const {
    state: _state,
    http: _http,
    ha: _ha,
    ...config
  } = parse(readFileSync(join(REPO_DIR, 'config.example.yaml'), 'utf8')) as Record<string, unknown>;
  return config;
}

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- manifests are untyped YAML

const inCi = process.env.CI === 'true';
const goMissing = findGo(process.env) === undefined;
if (goMissing && !inCi)
  console.log(`helm chart tests skipped: no go (apt-get install ${APT_PACKAGES.join(' ')})`);
const CRD_APIS = ['monitoring.coreos.com/v1'];
const hasPromtool = promtoolAvailable();

describe('values.schema.json', () => {
  const validate = compileValuesSchema();
  const defaults = readValues();

  it.each([
    ['values.yaml', defaults],
    ['values.yaml + ci/all-features-values.yaml', coalesceValues(defaults, readValues(CI_VALUES))],
    [
      'config.example.yaml as config: (less the sections the chart owns)',
      { ...defaults, config: exampleConfig() },
    ],
    [
      'the API token and the PostgreSQL TLS files from mounted Secrets (the rest of http and state)',
      coalesceValues(defaults, {
        config: {
          http: { api_token_file: '/etc/ledger-sentinel/secrets/api-token', api_read_auth: true },
          state: { postgres: { ssl: { ca_file: '/etc/ledger-sentinel/secrets/db-ca.pem' } } },
          ha: { standby_refresh: '5s' },
        },
      }),
    ],
  ])('accepts %s', (_label, values) => {
    const ok = validate(values);

    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it.each([
    ['a misspelt key', { persistance: { enabled: false } }, 'must NOT have additional properties'],
    [
      'a writable root filesystem',
      { securityContext: { readOnlyRootFilesystem: false } },
      'must be equal to constant',
    ],
    ['running as root allowed', { podSecurityContext: { runAsNonRoot: false } }, 'must be equal to constant'],
    [
      'a secret file without a Secret name',
      { secrets: { files: [{ key: 'k' }] } },
      "must have required property 'secretName'",
    ],
    ['config.state (owned by the chart)', { config: { state: { dir: '/data' } } }, 'must NOT be valid'],
    ['ha on the SQLite state', { ha: { enabled: true } }, '/state/backend must be equal to constant'],
    [
      'the PostgreSQL state without its Secret',
      { state: { backend: 'postgres' } },
      '/state/database/existingSecret must NOT have fewer than 1 characters',
    ],
    ['config.ha (set by the chart from ha)', { config: { ha: { enabled: true } } }, 'must NOT be valid'],
    [
      'config.http.port (set by the chart from service.port)',
      { config: { http: { port: 80 } } },
      'must NOT be valid',
    ],
    [
      'config.state.postgres.url (set by the chart from state.database)',
      { config: { state: { postgres: { url: 'postgres://x' } } } },
      '/config/state/postgres/url must NOT be valid',
    ],
    ['a tag-like digest', { image: { digest: 'latest' } }, 'must match pattern'],
    // The config block is checked with config.schema.json: these crash-looped the pod before.
    [
      'config.tail.poll_interval that is not a duration',
      { config: { tail: { poll_interval: 'soon' } } },
      '/config/tail/poll_interval must match pattern',
    ],
    [
      'a notifier kind that does not exist',
      { config: { notifiers: { ops: { kind: 'slak', webhook_url: 'https://hooks.example.com/x' } } } },
      '/config/notifiers/ops must match exactly one schema in oneOf',
    ],
    [
      'a misspelt config key',
      { config: { tail: { pol_interval: '2s' } } },
      'must NOT have additional properties',
    ],
    [
      'a secret and its *_file twin together',
      {
        config: {
          notifiers: { ops: { kind: 'slack', webhook_url: 'https://h.example/x', webhook_url_file: '/s/x' } },
        },
      },
      '/config/notifiers/ops must match exactly one schema in oneOf',
    ],
  ])('rejects %s', (_label, override, message) => {
    const ok = validate(coalesceValues(defaults, override));

    expect(ok).toBe(false);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.message}`).join('\n')).toContain(message);
  });
});

describe.skipIf(goMissing && !inCi)('helm chart rendered by helm/tools/render', () => {
  let binary: string;
  let validateManifest: ManifestValidator | undefined;
  let noSchemas = '';
  let defaults: RenderResult;
  let ci: RenderResult;

  let setupError: Error | undefined;
  const ruleSpec = () => manifest(ci, 'PrometheusRule').spec as { groups: unknown[] };
  const dashboardJson = () =>
    JSON.parse(
      manifest(ci, 'ConfigMap', 'ledger-sentinel-dashboard').data['ledger-sentinel.json'] as string,
    ) as Obj;

  // Setup failures (no Go, no schema packages in CI) are reported by the first test; the others are skipped.
  beforeAll(async () => {
    try {
      binary = buildRenderer({ env: process.env });
      validateManifest = await loadManifestValidator(process.env.CHECK_TOOLS_NODE_MODULES).catch(
        (err: Error) => {
          if (inCi) throw err;
          noSchemas = `Kubernetes schema validation skipped: ${err.message}`;
          console.log(noSchemas);
          return undefined;
        },
      );
      defaults = renderChart({ binary, strict: true });
      ci = renderChart({ binary, valuesFiles: [CI_VALUES], apiVersions: CRD_APIS, strict: true });
    } catch (err) {
      setupError = err as Error;
    }
  }, 180_000);

  beforeEach(({ task, skip }) => {
    if (setupError && !task.name.startsWith('builds the renderer')) skip('setup failed (see the first test)');
  });

  it('builds the renderer, loads the Kubernetes schemas and renders the default and CI values', () => {
    if (setupError) throw setupError;

    expect(defaults.manifests.length).toBeGreaterThan(0);
    expect(ci.manifests.length).toBeGreaterThan(defaults.manifests.length);
  });

  it.for([
    ['default values', () => defaults, 6],
    ['CI values', () => ci, 9],
  ] as const)('renders valid Kubernetes manifests for the %s', ([, result, count], { skip }) => {
    skip(!validateManifest, noSchemas);
    const validate = validateManifest!;

    const errors = result().manifests.flatMap((m) => validate(m.object).map((e) => `${m.source}: ${e}`));

    expect(errors).toEqual([]);
    expect(result().manifests).toHaveLength(count);
  });

  it.for([
    [
      'a string replica count',
      (d: Obj): void => void (d.spec.replicas = '1'),
      'data/spec/replicas must be integer',
    ],
    [
      'a misspelt field',
      (d: Obj): void => void (d.spec.template.spec.securityContext.runAsNonroot = true),
      '/spec/template/spec/securityContext: unknown field "runAsNonroot"',
    ],
    [
      'a kind without a schema',
      (d: Obj): void => void Object.assign(d, { apiVersion: 'v1', kind: 'Secret', spec: undefined }),
      'v1/Secret: no schema for this kind; add it to KINDS in helm/tools/validate-manifest.ts',
    ],
  ] as const)('reports %s (the validator can fail)', ([, mutate, expected], { skip }) => {
    skip(!validateManifest, noSchemas);
    const object = structuredClone(manifest(defaults, 'Deployment'));
    mutate(object);

    const errors = validateManifest!(JSON.parse(JSON.stringify(object)) as Obj);

    expect(errors.join('\n')).toContain(expected);
  });

  it('runs one pod at a time on a persistent volume (replicas 1, Recreate, PVC)', () => {
    const spec = manifest(defaults, 'Deployment').spec as Obj;
    const pvc = manifest(defaults, 'PersistentVolumeClaim') as Obj;

    expect(spec.replicas).toBe(1);
    expect(spec.strategy).toEqual({ type: 'Recreate' });
    expect(spec.template.spec.volumes).toContainEqual({
      name: 'state',
      persistentVolumeClaim: { claimName: pvc.metadata.name },
    });
    expect(pvc.spec.accessModes).toEqual(['ReadWriteOnce']);
    expect(pvc.metadata.annotations['helm.sh/resource-policy']).toBe('keep');
    expect(mounts(defaults)).toMatchObject({ state: { mountPath: '/var/lib/ledger-sentinel' } });
  });

  it.each([
    ['default', () => defaults],
    ['CI', () => ci],
  ])('runs non-root on a read-only root filesystem with no capabilities (%s values)', (_label, result) => {
    const pod = manifest(result(), 'Deployment').spec.template.spec as Obj;
    const container = pod.containers[0] as Obj;

    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      fsGroup: 1000,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(container.securityContext).toMatchObject({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.volumes).toContainEqual({ name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } });
    expect(container.resources.requests).toBeDefined();
    expect(container.resources.limits.memory).toBeDefined();
  });

  it('probes /healthz (startup, liveness) and /readyz (readiness) on the metrics port 9464', () => {
    const container = manifest(defaults, 'Deployment').spec.template.spec.containers[0] as Obj;
    const service = manifest(defaults, 'Service').spec as Obj;

    expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http-metrics' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http-metrics' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http-metrics' });
    expect(container.ports).toEqual([{ name: 'http-metrics', containerPort: 9464, protocol: 'TCP' }]);
    expect(service.ports).toEqual([
      { name: 'http-metrics', port: 9464, targetPort: 'http-metrics', protocol: 'TCP' },
    ]);
    expect(service.selector).toEqual(manifest(defaults, 'Deployment').spec.selector.matchLabels);
  });

  it('mounts config and rules from ConfigMaps as whole directories so that changes reach the pod', () => {
    const pod = manifest(defaults, 'Deployment').spec.template.spec as Obj;
    const config = configOf(defaults);

    expect(pod.containers[0].args).toEqual(['--config', '/etc/ledger-sentinel/config.yaml']);
    expect(mounts(defaults)).toMatchObject({
      config: { mountPath: '/etc/ledger-sentinel', readOnly: true },
      rules: { mountPath: '/etc/ledger-sentinel/rules', readOnly: true },
    });
    expect(Object.values(mounts(defaults)).filter((m) => 'subPath' in m)).toEqual([]);
    expect(pod.volumes).toContainEqual({ name: 'config', configMap: { name: 'ledger-sentinel-config' } });
    expect(pod.volumes).toContainEqual({ name: 'rules', configMap: { name: 'ledger-sentinel-rules' } });
    expect(config.state).toEqual({ dir: '/var/lib/ledger-sentinel' });
    expect(config.http).toEqual({ host: '0.0.0.0', port: 9464 });
    // The default values ship example rules, disabled: a pattern matching no file would be a config error.
    expect(config.rules).toEqual({ paths: ['/etc/ledger-sentinel/rules/*.yaml'] });
    expect(configOf(ci).rules).toEqual({ paths: ['/etc/ledger-sentinel/rules/*.yaml'] });
    expect(manifest(defaults, 'Deployment').spec.template.metadata.annotations).toBeUndefined();
  });

  // The daemon's config schema grows section by section (config-file/schema.ts); every section it knows is checked.
  it.for([
    ['default', () => defaults],
    ['CI', () => ci],
  ] as const)('renders a config.yaml the daemon accepts (%s values)', ([, result]) => {
    const known = Object.fromEntries(
      Object.entries(configOf(result())).filter(([key]) => key in CONFIG_SECTIONS),
    );

    const loaded = loadYaml({
      file: 'config.yaml',
      text: stringify(known),
      schema: Config,
      env: { SMTP_PASSWORD: 'from-a-secret' },
      // Mounted secrets are read as files; URL-shaped, because some of them are webhook URLs.
      readFile: () => 'https://secrets.example.test/from-a-secret-file',
    });

    expect(loaded.ok ? [] : loaded.issues.map(formatIssue)).toEqual([]);
    expect(Object.keys(known)).toEqual(expect.arrayContaining(['ledger', 'state', 'http', 'log']));
  });

  it.for([
    ['default', () => defaults],
    ['CI', () => ci],
  ] as const)(
    'renders config and rule files that ledger-sentinel check --offline accepts (%s values)',
    async ([, result]) => {
      const outcome = await checkPodFiles(writePodFiles(result()));

      expect(outcome.output).toMatch(/config\.yaml: valid: /);
      expect(outcome.code).toBe(0);
      expect(unmountedFileRefs(result())).toEqual([]);
    },
  );

  it('references existing Secrets as files under /etc/ledger-sentinel/secrets and as env vars (CI values)', () => {
    const pod = manifest(ci, 'Deployment').spec.template.spec as Obj;
    const secrets = pod.volumes.find((v: Obj) => v.name === 'secrets') as Obj;

    expect(mounts(ci).secrets).toEqual({
      name: 'secrets',
      mountPath: '/etc/ledger-sentinel/secrets',
      readOnly: true,
    });
    expect(secrets.projected.defaultMode).toBe(0o440);
    expect(secrets.projected.sources).toEqual([
      {
        secret: {
          name: 'ledger-sentinel-notifiers',
          items: [{ key: 'slack-webhook', path: 'slack-webhook' }],
        },
      },
      {
        secret: {
          name: 'ledger-sentinel-verification',
          items: [{ key: 'api-key', path: 'etherscan-api-key' }],
        },
      },
    ]);
    expect(pod.containers[0].env).toContainEqual({
      name: 'SMTP_PASSWORD',
      valueFrom: { secretKeyRef: { name: 'ledger-sentinel-smtp', key: 'password' } },
    });
    expect(ci.manifests.filter((m) => m.object.kind === 'Secret')).toEqual([]);
  });

  it('rolls the pod on config change only when rollOnConfigChange is set, and pins the image by digest', () => {
    const template = manifest(ci, 'Deployment').spec.template as Obj;

    expect(Object.keys(template.metadata.annotations)).toEqual(
      expect.arrayContaining(['checksum/config', 'checksum/rules']),
    );
    expect(template.metadata.annotations['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
    expect(template.spec.containers[0].image).toMatch(
      /^registry\.example\.com\/ledger-sentinel@sha256:[0-9a-f]{64}$/,
    );
  });

  it('scrapes /metrics through a ServiceMonitor and alerts on the daemon health (CI values)', () => {
    const monitor = manifest(ci, 'ServiceMonitor').spec as Obj;
    const rule = manifest(ci, 'PrometheusRule').spec as Obj;
    const alerts = rule.groups[0].rules.map((r: Obj) => r.alert);

    expect(monitor.endpoints).toEqual([
      { port: 'http-metrics', path: '/metrics', interval: '30s', scrapeTimeout: '10s' },
    ]);
    expect(alerts).toEqual([
      'LedgerSentinelDown',
      'LedgerSentinelConfigReloadFailed',
      'LedgerSentinelDeadLetters',
      'LedgerSentinelOutboxGrowing',
      'LedgerSentinelAccountStale',
      'LedgerSentinelQueryServiceLag',
      'LedgerSentinelRequestErrors',
      'LedgerSentinelNoLeader',
      'LedgerSentinelSeveralLeaders',
      'LedgerSentinelCapacityExceeded',
      'LedgerSentinelCapacityExceeded',
      'LedgerSentinelStalenessGrowing',
      'LedgerSentinelNoAlertsForADay',
    ]);
    expect(rule.groups[0].rules[1].expr).toContain('ledger_sentinel_config_last_reload_successful');
    expect(rule.groups[0].rules[6].expr).toContain('status=~"5..|429|error"');
  });

  it('alerts on the tail capacity at the thresholds of metrics.prometheusRule, warning then critical', () => {
    const values = {
      metrics: {
        prometheusRule: { enabled: true, capacityWarningRatio: 0.6, capacityCriticalRatio: 1.2 },
      },
    };
    const rendered = renderChart({ binary, valuesFiles: [writeValues(values)], apiVersions: CRD_APIS });
    const rules = (manifest(rendered, 'PrometheusRule').spec as Obj).groups[0].rules as Obj[];
    const defaultRules = (manifest(ci, 'PrometheusRule').spec as Obj).groups[0].rules as Obj[];
    const capacity = (list: Obj[]) =>
      list
        .filter((r) => r.alert === 'LedgerSentinelCapacityExceeded')
        .map((r) => [r.labels.severity, r.expr, r.for]);

    expect(capacity(defaultRules)).toEqual([
      ['warning', expect.stringMatching(/ledger_sentinel_tail_capacity_ratio\{.*\} > 0\.8$/), '15m'],
      ['critical', expect.stringMatching(/ledger_sentinel_tail_capacity_ratio\{.*\} > 1$/), '5m'],
    ]);
    expect(capacity(rules).map(([severity, expr]) => [severity, expr.split(' > ')[1]])).toEqual([
      ['warning', '0.6'],
      ['critical', '1.2'],
    ]);
    expect(defaultRules.find((r) => r.alert === 'LedgerSentinelStalenessGrowing')?.expr).toMatch(
      /ledger_sentinel_tail_staleness_p99_seconds\{.*\} > 120\s+and deriv\(/,
    );
  });

  it.for([
    [
      'the PrometheusRule passes promtool check rules and its unit tests',
      () => ({ spec: ruleSpec(), tests: RULE_TESTS }),
    ],
    [
      'the Grafana dashboard queries parse as PromQL',
      () => ({ spec: dashboardQueriesAsRules(dashboardJson()) }),
    ],
  ] as const)('%s', ([, input], { skip }) => {
    if (!hasPromtool && !inCi) skip('promtool is not installed (apt-get install prometheus)');
    const { spec, tests } = input() as { spec: { groups: unknown[] }; tests?: string };

    const result = runPromtool(spec, tests);

    expect(result.output, 'promtool is required in CI: apt-get install prometheus').not.toMatch(/ENOENT/);
    expect(result.ok, result.output).toBe(true);
  });

  it('shows the dashboard on series without a namespace label (Prometheus without the Operator)', ({
    skip,
  }) => {
    if (!hasPromtool && !inCi) skip('promtool is not installed (apt-get install prometheus)');
    const variables = dashboardJson().templating.list.filter((v: Obj) => v.type === 'query') as Obj[];

    const result = dashboardWithoutNamespace(dashboardJson());

    expect(variables.map((v) => [v.name, v.includeAll, v.allValue, v.current?.value])).toEqual([
      ['namespace', true, '.*', ['$__all']],
      ['job', true, '.*', ['$__all']],
    ]);
    expect(result.ok, result.output).toBe(true);
  });

  it('uses only metrics the daemon exports in the alerts and the Grafana dashboard', async () => {
    const exported = (await createMetrics().registry.getMetricsAsJSON()).map((m) => m.name);
    const dashboard = dashboardJson();
    const text = `${manifest(ci, 'PrometheusRule')
      .spec.groups[0].rules.map((r: Obj) => r.expr)
      .join('\n')}\n${JSON.stringify(dashboard)}`;

    const used = new Set(
      [...text.matchAll(/ledger_sentinel_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, '')),
    );

    expect([...used].filter((name) => !exported.includes(name))).toEqual([]);
    expect(manifest(ci, 'ConfigMap', 'ledger-sentinel-dashboard').metadata.labels.grafana_dashboard).toBe(
      '1',
    );
    expect(dashboard.panels.length).toBeGreaterThan(5);
  });

  it('renders no Prometheus Operator or Grafana objects by default, and NOTES for both', () => {
    const kinds = defaults.manifests.map((m) => m.object.kind);

    expect(kinds).not.toContain('ServiceMonitor');
    expect(kinds).not.toContain('PrometheusRule');
    expect(defaults.manifests.map((m) => m.source)).not.toContain(
      'ledger-sentinel/templates/grafana-dashboard.yaml',
    );
    expect(defaults.notes).toContain('kubectl -n monitoring port-forward svc/ledger-sentinel 9464');
    expect(ci.notes).not.toContain('WARNING');
    expect(defaults.notes).toContain('NEXT STEP: no account is watched and the example rules ship disabled');
    expect(ci.notes).not.toContain('NEXT STEP');
  });

  it('caps the V8 heap through NODE_OPTIONS by default (the flags bench 4 and chaos 8 run with), or not at all', () => {
    const env = (result: typeof defaults) =>
      (manifest(result, 'Deployment').spec.template.spec.containers[0].env ?? []) as Obj[];
    const none = renderChart({ binary, valuesFiles: [writeValues({ nodeOptions: '' })] });

    const nodeOptions = readValues().nodeOptions;

    expect(nodeOptions).toMatch(/--max-old-space-size=\d+/);
    expect(env(defaults)).toContainEqual({ name: 'NODE_OPTIONS', value: nodeOptions });
    expect(env(none).map((e) => e.name)).not.toContain('NODE_OPTIONS');
  });

  it('falls back to an emptyDir and warns in NOTES without persistence', () => {
    const result = renderChart({ binary, valuesFiles: [writeValues({ persistence: { enabled: false } })] });

    expect(manifest(result, 'Deployment').spec.template.spec.volumes).toContainEqual({
      name: 'state',
      emptyDir: {},
    });
    expect(result.manifests.map((m) => m.object.kind)).not.toContain('PersistentVolumeClaim');
    expect(result.notes).toContain('WARNING: persistence.enabled is false');
  });

  it('runs several replicas on PostgreSQL with ha: RollingUpdate, a PDB, anti-affinity, no PVC', ({
    skip,
  }) => {
    const values = {
      state: { backend: 'postgres', database: { existingSecret: 'sentinel-db' } },
      ha: { enabled: true },
    };
    const ha = renderChart({ binary, valuesFiles: [writeValues(values)], strict: true });
    const deployment = manifest(ha, 'Deployment').spec as Obj;
    const pod = deployment.template.spec as Obj;

    expect(deployment.replicas).toBe(2);
    expect(deployment.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 0, maxSurge: 1 },
    });
    expect(manifest(ha, 'PodDisruptionBudget').spec).toEqual({
      minAvailable: 1,
      selector: { matchLabels: deployment.selector.matchLabels },
    });
    expect(ha.manifests.map((m) => m.object.kind)).not.toContain('PersistentVolumeClaim');
    expect(pod.volumes).toContainEqual({ name: 'state', emptyDir: {} });
    expect(pod.volumes).toContainEqual({
      name: 'database',
      secret: { secretName: 'sentinel-db', defaultMode: 0o440, items: [{ key: 'url', path: 'url' }] },
    });
    expect(mounts(ha).database).toEqual({
      name: 'database',
      mountPath: '/etc/ledger-sentinel/database',
      readOnly: true,
    });
    expect(pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution).toEqual([
      {
        weight: 100,
        podAffinityTerm: {
          topologyKey: 'kubernetes.io/hostname',
          labelSelector: { matchLabels: deployment.selector.matchLabels },
        },
      },
    ]);
    expect(pod.containers[0].env).toContainEqual({
      name: 'POD_NAME',
      valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
    });
    expect(configOf(ha).state).toEqual({
      dir: '/var/lib/ledger-sentinel',
      backend: 'postgres',
      postgres: { url_file: '/etc/ledger-sentinel/database/url' },
    });
    expect(configOf(ha).ha).toEqual({
      enabled: true,
      lease_ttl: '15s',
      advertise_url: 'http://${POD_IP}:9464',
    });
    skip(!validateManifest, noSchemas);
    expect(ha.manifests.flatMap((m) => validateManifest!(m.object).map((e) => `${m.source}: ${e}`))).toEqual(
      [],
    );
  });

  it.for([
    [
      'values the schema refuses (the old docs example: an email notifier with an smtp: key)',
      { config: { notifiers: { 'ops-email': { kind: 'email', smtp: { host: 'smtp.example.com' } } } } },
      /values\.schema\.json: FAIL\n {4}\/config\/notifiers\/ops-email /,
    ],
    [
      'a rule file the daemon refuses (no summary)',
      { rules: { files: { 'x.yaml': 'rules:\n  - id: x\n    when: { result: fail }\n' } } },
      /config\.yaml \(ledger-sentinel check --offline\): FAIL\n {4}\/etc\/ledger-sentinel\/rules\/x\.yaml:2:5 summary: missing required key/,
    ],
  ] as const)('check-chart.ts exits 1 on %s, saying where', ([, values, expected]) => {
    const run = spawnSync(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'helm/tools/check-chart.ts', '-f', writeValues(values)],
      { cwd: REPO_DIR, encoding: 'utf8', env: process.env },
    );

    expect(run.stderr).toMatch(expected);
    expect(run.stderr).toMatch(/manifests, [1-9]\d* problems\n$/);
    expect(run.status).toBe(1);
  });

  it('reports a *_file path the pod does not mount, naming the secrets.files entry to add', () => {
    const values = {
      config: {
        http: { api_token_file: '/etc/ledger-sentinel/secrets/api-token' },
        notifiers: { x: { kind: 'slack', webhook_url_file: '/var/run/hook' } },
      },
    };

    const problems = unmountedFileRefs(renderChart({ binary, valuesFiles: [writeValues(values)] }));

    expect(problems).toEqual([
      'config http.api_token_file: /etc/ledger-sentinel/secrets/api-token is not in the pod: add { secretName: <your Secret>, key: <its key>, path: api-token } to secrets.files',
      'config notifiers.x.webhook_url_file: /var/run/hook is not in the pod: the chart mounts Secrets under /etc/ledger-sentinel/secrets/ (secrets.files): point the key there',
    ]);
  });

  it('fails to render with the template and message when a required value is missing', () => {
    const values = writeValues({ secrets: { env: [{ name: 'X', key: 'k' }] } });

    expect(() => renderChart({ binary, valuesFiles: [values] })).toThrow(
      /ledger-sentinel\/templates\/deployment\.yaml.*secrets\.env\[\]\.secretName is required/s,
    );
  });
});

function manifest(result: RenderResult, kind: string, name?: string): Obj {
  return findManifest(result, kind, name) as Obj;
}

function configOf(result: RenderResult): Obj {
  return parse(manifest(result, 'ConfigMap', 'ledger-sentinel-config').data['config.yaml'] as string) as Obj;
}

function mounts(result: RenderResult): Record<string, Obj> {
  const container = manifest(result, 'Deployment').spec.template.spec.containers[0] as Obj;
  return Object.fromEntries((container.volumeMounts as Obj[]).map((m) => [m.name, m]));
}

function writeValues(values: Obj): string {
  const path = join(mkdtempSync(join(tmpdir(), 'helm-values-')), 'values.yaml');
  writeFileSync(path, JSON.stringify(values));
  return path;
}
