/**
 * The driver mutates a runtime (creates, stops and removes pods), so it only ever talks to
 * Podscope's simulator — recognised by the runtime name its Version RPC reports — or to an
 * endpoint somebody explicitly marked as a lab (`lab: true`, from a config `#lab` endpoint or the
 * scenario command's `--cri`). Observing stays read-only everywhere else.
 */
import type { RuntimeInfo } from '@/lib/kubelet/runtime';
import type { DriverRuntime } from './runtime';

/**
 * Runtime names that identify Podscope's simulator in VersionResponse.runtime_name. Kept as a
 * list so a renamed simulator can be recognised during a transition.
 */
export const SIMULATOR_RUNTIME_NAMES: readonly string[] = ['podscope-sim'];

export class DriverRefusedError extends Error {
  override name = 'DriverRefusedError';
}

export function isSimulator(info: RuntimeInfo): boolean {
  return SIMULATOR_RUNTIME_NAMES.includes(info.name);
}

/**
 * Resolves when the driver may mutate this runtime; rejects with DriverRefusedError when it is
 * neither the simulator nor a lab, or with the connection error when Version cannot be asked
 * (the caller may try again later).
 */
export async function checkMutable(
  runtime: DriverRuntime,
  lab: boolean,
): Promise<RuntimeInfo | undefined> {
  if (lab) return undefined;
  let info: RuntimeInfo;
  try {
    info = await runtime.version();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `driver: cannot verify that ${runtime.endpoint} is Podscope's simulator before changing it (Version failed: ${why})`,
      { cause: err },
    );
  }
  if (!isSimulator(info)) {
    throw new DriverRefusedError(
      `driver: refusing to create or delete pods on ${runtime.endpoint}: it reports runtime "${info.name}" ${info.version}, ` +
        `not Podscope's simulator. Mark the endpoint as a lab (config "#lab", or --cri for "podscope scenario run") ` +
        `only if it is a disposable runtime.`,
    );
  }
  return info;
}
