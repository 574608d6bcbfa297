/**
 * `podscope run -f FILE [--cri NAME=ENDPOINT#lab] [--for SECONDS] [--json]`: a kubelet in a box.
 * Runs the Pods of a manifest with Podscope's kubelet stand-in (server/driver) — on an embedded
 * simulated node, or on a lab runtime — watches them with the engine, and reports what the
 * kubelet would: with `--for`, the `podscope snapshot --json` document after that many seconds
 * (then its pods are deleted); without, every derived change as it happens (NDJSON with --json)
 * until interrupted, then its pods are deleted. The way to try a probe configuration on a real
 * containerd without a cluster.
 */
import { readFile } from 'node:fs/promises';
import { containerBackoff } from '@/lib/kubelet/backoff';
import { formatExplanation } from '@/lib/i18n/format';
import { toJsonValue } from '@/lib/timeline/codec';
import type { TimelineEvent } from '@/lib/timeline/events';
import { CriClient } from '@/server/cri/client';
import { fromSimClock, systemClock, type DriverClock } from '@/server/driver/clock';
import { Driver } from '@/server/driver/driver';
import { PodSpecError } from '@/server/driver/spec/spec';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine } from '@/server/engine/engine';
import { engineStore } from '@/server/engine/store-adapter';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';
import { startSimNode, type SimNode } from '@/server/sim';
import { simProbeNetwork } from '@/server/sim/runtime/network';
import { openStore } from '@/server/timeline-db';
import { UsageError, type Command } from '../command';
import { criNodes, kubeletVersions, parse } from '../lib/args';
import { ManifestError, parseManifest } from '../lib/manifest';
import { snapshotDocument, snapshotSummary } from './snapshot';

const usage = `Usage: podscope run -f FILE [--cri NAME=ENDPOINT#lab] [--for SECONDS] [--json]

Runs the Pods of FILE (a Pod or a List of Pods, YAML or JSON) with Podscope's kubelet stand-in:
probes, postStart/preStop hooks, restarts and back-offs as the kubelet does them. By default on an
embedded simulated node; with --cri on a lab runtime (the endpoint must end in #lab: its pods are
created and deleted). Spec fields the stand-in does not implement are named in a warning.

  -f, --file FILE         the manifest
  --cri NAME=ENDPOINT#lab a lab runtime instead of the simulator (unix:///path or tcp://host:port)
  --for SECONDS           after this long print the snapshot (as podscope snapshot --json) and
                          delete the pods; without it, print each change until interrupted
  --json                  JSON (the snapshot) or NDJSON (the changes)
  --kubelet-version V     derive with the rules of this kubelet (1.28–1.36; default the newest;
                          env PODSCOPE_KUBELET_VERSION)

Exit status: 0 on success; 1 with located errors for a bad manifest or an unreachable runtime;
2 for a usage error.`;

interface Runtime {
  node: string;
  endpoint: string;
  clock: DriverClock;
  now: () => number;
  sim?: SimNode;
  stop(): Promise<void>;
}

async function openRuntime(cri: string[] | undefined): Promise<Runtime> {
  if (cri && cri.length > 0) {
    if (cri.length > 1) throw new UsageError('--cri: give one lab runtime');
    const [n] = criNodes(cri);
    if (!n) throw new UsageError('--cri: give one lab runtime');
    if (!n.lab) {
      throw new UsageError(
        `--cri ${n.endpoint}: podscope run creates and deletes pods; mark a disposable runtime with #lab (${n.name}=${n.endpoint}#lab)`,
      );
    }
    return {
      node: n.name,
      endpoint: n.endpoint,
      clock: systemClock,
      now: () => Date.now(),
      stop: () => Promise.resolve(),
    };
  }
  const sim = await startSimNode({ name: 'sim-node', clock: { mode: 'real', speed: 1 } });
  return {
    node: 'sim-node',
    endpoint: sim.endpoint,
    clock: fromSimClock(sim.clock),
    now: () => sim.clock.now(),
    sim,
    stop: () => sim.stop(),
  };
}

function eventLine(e: TimelineEvent): string {
  const what =
    e.kind === 'k8s'
      ? `${e.eventType} ${e.reason} ${e.involvedObject.namespace ?? ''}/${e.involvedObject.name}${e.container ? ` ${e.container}` : ''}: ${e.message}`
      : e.kind === 'container'
        ? `${e.podUid.slice(0, 8)} ${e.name}: ${e.from ?? ''}→${e.to ?? ''} ${e.status?.state?.waiting?.reason ?? e.status?.state?.terminated?.reason ?? ''} ready=${String(e.status?.ready ?? false)}${e.why ? ` — ${formatExplanation(e.why)}` : ''}`
        : e.kind === 'pod'
          ? `${e.podUid.slice(0, 8)} ${e.type}${e.phase ? ` ${e.phase}` : ''}${e.condition ? ` ${e.condition.type}=${e.condition.status}` : ''}${e.why ? ` — ${formatExplanation(e.why)}` : ''}`
          : e.kind === 'cri'
            ? `${e.type}${e.container ? ` ${e.container}` : ''}`
            : `${e.type}`;
  return `${new Date(e.t).toISOString()} ${e.node} ${what}`;
}

export const runCommand: Command = {
  name: 'run',
  summary: 'run a manifest’s Pods with the kubelet stand-in and print what the kubelet reports',
  usage,
  async run(args) {
    const { values } = parse(args, {
      file: { type: 'string', short: 'f' },
      cri: { type: 'string', multiple: true },
      for: { type: 'string' },
      json: { type: 'boolean', default: false },
      'kubelet-version': { type: 'string', multiple: true },
    });
    if (!values.file) throw new UsageError('give the manifest with -f FILE');
    const versions = kubeletVersions(values['kubelet-version']);
    let seconds: number | undefined;
    if (values.for !== undefined) {
      seconds = Number(values.for);
      if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400)
        throw new UsageError(`--for ${values.for}: a number of seconds between 0 and 86400`);
    }
    const file = values.file;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new Error(`${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
    let pods;
    try {
      pods = parseManifest(file, text);
    } catch (err) {
      if (err instanceof ManifestError) {
        process.stderr.write(`podscope run: ${err.message}\n`);
        return 1;
      }
      throw err;
    }

    const rt = await openRuntime(values.cri);
    let closing = false;
    const log = (l: string) => {
      if (!closing) process.stderr.write(`${l}\n`);
    };
    const client = new CriClient(rt.endpoint, { timeoutMs: 10_000 });
    const driver = new Driver({
      client,
      node: rt.node,
      clock: rt.clock,
      lab: values.cri !== undefined,
      ...(rt.sim ? { network: simProbeNetwork(rt.sim.runtime) } : {}),
      log,
    });
    const store = openStore({ path: ':memory:' });
    const engine = new Engine({
      store: engineStore(store),
      timings: { ...DEFAULT_ENGINE_TIMINGS, relistMs: 1_000 },
      clock: { now: rt.now },
      providers: [driver.hints],
      backoff: () => containerBackoff(),
      ...(versions ? { kubeletVersions: versions } : {}),
      dial: (ep) => criRuntime(ep, { timeoutMs: 10_000 }),
      log,
    });
    const uids: string[] = [];
    const cleanup = async () => {
      closing = true;
      await Promise.allSettled(uids.map((u) => driver.delete(u, { gracePeriodSeconds: 0 })));
      await driver.stop();
      await engine.stop();
      store.close();
      client.close();
      await rt.stop();
    };
    try {
      engine.addNode(rt.node, rt.endpoint, values.cri !== undefined);
      engine.start();
      const problems: string[] = [];
      for (const p of pods) {
        try {
          const applied = await driver.apply(p.pod);
          uids.push(applied.metadata?.uid ?? '');
        } catch (err) {
          if (err instanceof PodSpecError) problems.push(`${file}: ${p.path}: ${err.message}`);
          else throw err;
        }
      }
      if (problems.length > 0) {
        process.stderr.write(`podscope run: ${problems.join('\n')}\n`);
        return 1;
      }
      if (seconds !== undefined) {
        await new Promise((r) => setTimeout(r, (seconds ?? 0) * 1000));
        const doc = snapshotDocument(engine.snapshot(), [
          { name: rt.node, endpoint: rt.endpoint, lab: values.cri !== undefined },
        ]);
        process.stdout.write(
          values.json ? `${JSON.stringify(toJsonValue(doc))}\n` : `${snapshotSummary(doc)}\n`,
        );
        return 0;
      }
      // Until interrupted: every change as it is recorded.
      const abort = new AbortController();
      const stop = () => abort.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        for await (const batch of engine.subscribe(abort.signal)) {
          for (const e of batch) {
            process.stdout.write(
              values.json ? `${JSON.stringify(toJsonValue(e))}\n` : `${eventLine(e)}\n`,
            );
          }
        }
      } catch (err) {
        if (!abort.signal.aborted) throw err;
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
      return 0;
    } finally {
      await cleanup();
    }
  },
};
