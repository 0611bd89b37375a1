// Renders the chart like `helm template` and validates every manifest, for use by hand:
//
//   npx tsx helm/tools/check-chart.ts                      # default values, prints a summary
//   npx tsx helm/tools/check-chart.ts --ci --print         # CI values (all features), prints the manifests
//   npx tsx helm/tools/check-chart.ts -f my-values.yaml    # your values over the defaults
//
// Exit status 1 when rendering or validation fails. The same checks run in test/repo/helm.test.ts.
import { buildRenderer } from './build-renderer.js';
import { CI_VALUES, renderChart } from './render-chart.js';
import { loadManifestValidator } from './validate-manifest.js';

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const valuesFiles = argv.flatMap((a, i) => (a === '-f' || a === '--values' ? [argv[i + 1] ?? ''] : []));
  if (argv.includes('--ci')) valuesFiles.unshift(CI_VALUES);
  const binary = buildRenderer({ env });
  const result = renderChart({
    binary,
    valuesFiles,
    apiVersions: ['monitoring.coreos.com/v1'],
    strict: true,
  });
  const validate = await loadManifestValidator(env.CHECK_TOOLS_NODE_MODULES);
  let failures = 0;
  for (const m of result.manifests) {
    const errors = validate(m.object);
    failures += errors.length;
    const meta = m.object.metadata as { name?: string } | undefined;
    const status = errors.length === 0 ? 'ok' : `FAIL\n    ${errors.join('\n    ')}`;
    process.stderr.write(`${String(m.object.kind)}/${meta?.name ?? '?'} (${m.source}): ${status}\n`);
    if (argv.includes('--print')) process.stdout.write(`---\n# Source: ${m.source}\n${m.content}\n`);
  }
  process.stderr.write(`${result.manifests.length} manifests, ${failures} problems\n`);
  return failures === 0 ? 0 : 1;
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
