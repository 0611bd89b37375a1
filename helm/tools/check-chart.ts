// Checks the chart like `helm lint --strict` + `helm template` + the daemon would, for use by hand and in CI:
//   1. the values (values.yaml with your files merged over it) against values.schema.json, as helm does;
//   2. renders the chart and validates every manifest against the Kubernetes schemas;
//   3. checks that every `*_file` path of the config is a file the pod mounts (a Secret of secrets.files);
//   4. runs the daemon's own `ledger-sentinel check --offline` on the config and rule files the pod would mount.
//
//   npx tsx helm/tools/check-chart.ts                      # default values, prints a summary
//   npx tsx helm/tools/check-chart.ts --ci --print         # CI values (all features), prints the manifests
//   npx tsx helm/tools/check-chart.ts -f my-values.yaml    # your values over the defaults
//
// Exit status 1 when any check fails. The same checks run in test/repo/helm.test.ts.
import { buildRenderer } from './build-renderer.js';
import { coalesceValues, compileValuesSchema, readValues } from './chart-values.js';
import { CI_VALUES, renderChart } from './render-chart.js';
import { unmountedFileRefs } from './pod-file-refs.js';
import { checkPodFiles, writePodFiles } from './rendered-config.js';
import { loadManifestValidator } from './validate-manifest.js';

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const valuesFiles = argv.flatMap((a, i) => (a === '-f' || a === '--values' ? [argv[i + 1] ?? ''] : []));
  if (argv.includes('--ci')) valuesFiles.unshift(CI_VALUES);
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const schemaProblems = valuesProblems(valuesFiles);
  say(
    `values.schema.json: ${schemaProblems.length === 0 ? 'ok' : `FAIL\n    ${schemaProblems.join('\n    ')}`}`,
  );
  const binary = buildRenderer({ env });
  const result = renderChart({
    binary,
    valuesFiles,
    apiVersions: ['monitoring.coreos.com/v1'],
    strict: true,
  });
  const validate = await loadManifestValidator(env.CHECK_TOOLS_NODE_MODULES);
  let failures = schemaProblems.length;
  for (const m of result.manifests) {
    const errors = validate(m.object);
    failures += errors.length;
    const meta = m.object.metadata as { name?: string } | undefined;
    const status = errors.length === 0 ? 'ok' : `FAIL\n    ${errors.join('\n    ')}`;
    say(`${String(m.object.kind)}/${meta?.name ?? '?'} (${m.source}): ${status}`);
    if (argv.includes('--print')) process.stdout.write(`---\n# Source: ${m.source}\n${m.content}\n`);
  }
  failures += await checkConfig(result, say);
  say(`${result.manifests.length} manifests, ${failures} problems`);
  return failures === 0 ? 0 : 1;
}

/** Helm refuses values that fail values.schema.json before rendering anything: so does this. */
function valuesProblems(valuesFiles: readonly string[]): string[] {
  const values = valuesFiles.reduce((acc, file) => coalesceValues(acc, readValues(file)), readValues());
  const validate = compileValuesSchema();
  if (validate(values)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The config the pod loads, through the daemon's own `check --offline` (skipped with existingConfigMap). */
async function checkConfig(
  result: Parameters<typeof writePodFiles>[0],
  say: (line: string) => void,
): Promise<number> {
  const hasConfig = result.manifests.some((m) => m.source.endsWith('templates/configmap.yaml'));
  if (!hasConfig) {
    say('config.yaml: not checked (existingConfigMap: check your ConfigMap with ledger-sentinel check)');
    return 0;
  }
  const unmounted = unmountedFileRefs(result);
  say(
    `*_file paths mounted in the pod: ${unmounted.length === 0 ? 'ok' : `FAIL\n    ${unmounted.join('\n    ')}`}`,
  );
  const files = writePodFiles(result);
  if (files.rulesNotRendered)
    say('rule files: not checked (rules.existingConfigMap: check them with ledger-sentinel check)');
  const outcome = await checkPodFiles(files);
  const text = outcome.output.trim().replaceAll('\n', '\n    ');
  say(`config.yaml (ledger-sentinel check --offline): ${outcome.code === 0 ? 'ok' : 'FAIL'}\n    ${text}`);
  return unmounted.length + (outcome.code === 0 ? 0 : 1);
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`check-chart: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
