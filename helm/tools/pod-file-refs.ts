// Every `*_file` path in the rendered config must be a file the pod has: a key of a Secret the chart mounts
// (secrets.files under /etc/ledger-sentinel/secrets/, the database URL), or of a mounted ConfigMap. `check
// --offline` cannot see this (it does not read secret files), and a path nobody mounts stops the daemon at start
// with ENOENT: here it is an error that names the secrets.files entry to add.
import { parse } from 'yaml';
import type { RenderResult } from './render-chart.js';

type Obj = Record<string, unknown>;

interface Mount {
  readonly path: string;
  /** The files the volume holds (relative to path), or undefined when any name may exist (a whole Secret). */
  readonly files: readonly string[] | undefined;
}

/** Problems as `config <key path>: <file> is not in the pod: <fix>`; empty when every file is mounted. */
export function unmountedFileRefs(result: RenderResult): string[] {
  const configMaps = result.manifests.filter((m) => m.object.kind === 'ConfigMap');
  const configText = configMaps.find((m) => m.source.endsWith('templates/configmap.yaml'))?.object.data as
    Obj | undefined;
  if (typeof configText?.['config.yaml'] !== 'string') return [];
  const mounts = podMounts(result);
  const problems: string[] = [];
  for (const [key, file] of fileRefs(parse(configText['config.yaml']) as unknown, '')) {
    const mount = mounts
      .filter((m) => file.startsWith(`${m.path}/`))
      .sort((a, b) => b.path.length - a.path.length)[0];
    const name = mount ? file.slice(mount.path.length + 1) : '';
    if (mount && (mount.files === undefined || mount.files.includes(name))) continue;
    const fix = file.startsWith('/etc/ledger-sentinel/secrets/')
      ? `add { secretName: <your Secret>, key: <its key>, path: ${file.slice('/etc/ledger-sentinel/secrets/'.length)} } to secrets.files`
      : 'the chart mounts Secrets under /etc/ledger-sentinel/secrets/ (secrets.files): point the key there';
    problems.push(`config ${key}: ${file} is not in the pod: ${fix}`);
  }
  return problems;
}

function fileRefs(node: unknown, at: string): [string, string][] {
  if (Array.isArray(node)) return node.flatMap((v, i) => fileRefs(v, `${at}[${i}]`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node as Obj).flatMap(([k, v]) => {
    const key = at ? `${at}.${k}` : k;
    return k.endsWith('_file') && typeof v === 'string' ? [[key, v] as [string, string]] : fileRefs(v, key);
  });
}

function podMounts(result: RenderResult): Mount[] {
  const deployment = result.manifests.find((m) => m.object.kind === 'Deployment')?.object as Obj | undefined;
  const pod = ((deployment?.spec as Obj | undefined)?.template as Obj | undefined)?.spec as Obj | undefined;
  const volumes = new Map(((pod?.volumes ?? []) as Obj[]).map((v) => [v.name as string, v]));
  const container = ((pod?.containers ?? []) as Obj[])[0];
  const rendered = new Map(
    result.manifests
      .filter((m) => m.object.kind === 'ConfigMap')
      .map((m) => [(m.object.metadata as Obj).name as string, Object.keys((m.object.data ?? {}) as Obj)]),
  );
  return ((container?.volumeMounts ?? []) as Obj[]).map((m) => ({
    path: m.mountPath as string,
    files: volumeFiles(volumes.get(m.name as string), rendered),
  }));
}

function volumeFiles(volume: Obj | undefined, rendered: Map<string, string[]>): string[] | undefined {
  if (!volume) return [];
  const items = (source: Obj | undefined) =>
    source?.items ? (source.items as Obj[]).map((i) => i.path as string) : undefined;
  if (volume.secret) return items(volume.secret as Obj);
  if (volume.projected) {
    const sources = ((volume.projected as Obj).sources ?? []) as Obj[];
    const lists = sources.map((s) => items((s.secret ?? s.configMap) as Obj | undefined));
    return lists.some((l) => l === undefined) ? undefined : (lists.flat() as string[]);
  }
  if (volume.configMap) {
    const cm = volume.configMap as Obj;
    return items(cm) ?? rendered.get(cm.name as string);
  }
  return [];
}
