/** Shared option parsing for CLI commands (node:util parseArgs, with usage errors). */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseKubeletVersionSettings, type KubeletVersionSettings } from '@/lib/kubelet/version';
import type { NodeEndpoint } from '@/server/config';
import { parseNodeSpec } from '@/server/config-env';
import { UsageError } from '../command';

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/** `--cri [NAME=]ENDPOINT` values → node endpoints with unique names. */
export function criNodes(values: readonly string[] | undefined, required = true): NodeEndpoint[] {
  const specs = values ?? [];
  if (required && specs.length === 0)
    throw new UsageError('give at least one --cri [NAME=]ENDPOINT');
  const nodes = specs.map((s, i) => parseNodeSpec(s, i));
  const seen = new Set<string>();
  for (const n of nodes) {
    if (!/^(unix:\/\/\/|tcp:\/\/|\/)/.test(n.endpoint)) {
      throw new UsageError(
        `--cri ${n.endpoint}: an endpoint is unix:///path, /path or tcp://host:port`,
      );
    }
    if (seen.has(n.name))
      throw new UsageError(`--cri: two nodes are named "${n.name}"; name them NAME=ENDPOINT`);
    seen.add(n.name);
  }
  return nodes;
}

/**
 * `--kubelet-version [NODE=]VERSION` values (repeatable, or comma-separated), else
 * PODSCOPE_KUBELET_VERSION: the kubelet version of nodes no API server describes.
 */
export function kubeletVersions(
  values: readonly string[] | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): KubeletVersionSettings | undefined {
  const given = values?.length ? values : env.PODSCOPE_KUBELET_VERSION;
  if (!given) return undefined;
  try {
    return parseKubeletVersionSettings(
      given,
      values?.length ? '--kubelet-version' : 'PODSCOPE_KUBELET_VERSION',
    );
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/** "30s", "5m", "1h", "1500ms" or plain seconds → milliseconds. */
export function parseDuration(text: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new UsageError(`${flag} ${text}: a duration is like 30s, 5m, 1h or 1500ms`);
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  return Math.round(
    n * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000),
  );
}
