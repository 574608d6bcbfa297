/**
 * agent_rss_mb and agent_cpu_pct: one `podscope agent` run as the DaemonSet runs it — the image's
 * esbuild bundle of the agent (deploy/image/build.ts bundleCli → cli/agent.mjs) under plain node
 * with the DaemonSet's process tuning, its NODE_OPTIONS and GLIBC_TUNABLES (read from the rendered
 * deploy/kubernetes, deploy/kubernetes/testing/process-tuning.ts) —
 * watching one simulated node of 110 pods × 3 containers at the kubelet's 1 s relist, publishing
 * to a real loopback nats-server, with a light crash-loop churn (1 container change per second),
 * and its 110 pod specs in the specs bucket as the API-view leader writes them (details
 * api_pod_specs), so its 'apiserver' provider holds what it holds in a cluster.
 * The simulator runs in its own process, so the figures are the agent's alone: resident memory
 * (VmRSS, the median of once-a-second samples over the window; the maximum in details), and CPU
 * (utime + stime from /proc) over the window as a share of one core. Details break the memory down (V8 heap spaces, external buffers, from the agent's
 * own /metrics) and give the same figures for the agent under tsx (`node bin/podscope.mjs`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleCli } from '@/deploy/image/build';
import { processTuning } from '@/deploy/kubernetes/testing/process-tuning';
import { connectBus } from '@/server/cluster/bus/connection';
import { readLive } from '@/server/cluster/bus/kv';
import { newApiEpoch } from '@/server/cluster/envelope';
import { DEFAULT_CLUSTER } from '@/server/cluster/names';
import { encodeSpecRecord, openSpecsBucket, type PodSpecRecord } from '@/server/cluster/specs';
import { startNats, type NatsInstance } from '@/test/cluster/harness';
import { ROOT } from '../lib/server';
import { SimProcess } from '../lib/sim-process';
import { median, round } from '../lib/stats';

const TICKS_PER_S = 100; // getconf CLK_TCK on Linux

function procCpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime
}

function procRssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

interface AgentRun {
  /** Median of the window's once-a-second samples. */
  rssMb: number;
  rssMaxMb: number;
  cpuPct: number;
  /** From the agent's /metrics at the end of the window (MiB). */
  memory: Record<string, number>;
  /** Pod specs in its node's keys of the specs bucket during the window. */
  specs: number;
}

/** The agent's own memory figures (prom-client's process and heap metrics), MiB. */
async function memoryOf(address: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  try {
    const text = await (await fetch(`http://${address}/metrics`)).text();
    const pick = (re: RegExp, key: string) => {
      const m = re.exec(text);
      if (m) out[key] = round(Number(m[1]) / 2 ** 20, 1);
    };
    pick(/^nodejs_heap_size_used_bytes (\S+)$/m, 'heap_used');
    pick(/^nodejs_heap_size_total_bytes (\S+)$/m, 'heap_total');
    pick(/^nodejs_external_memory_bytes (\S+)$/m, 'external');
    for (const m of text.matchAll(/^nodejs_heap_space_size_used_bytes\{space="(\w+)"\} (\S+)$/gm))
      out[`space_${m[1]}`] = round(Number(m[2]) / 2 ** 20, 1);
  } catch {
    // the figures are details; the RSS and CPU are read from /proc
  }
  return out;
}

/**
 * What the API-view leader would write for this node (server/cluster/spec-publisher.ts): a pod
 * spec per pod the agent has derived, from the node state it puts in KV, so the agent runs with
 * its 'apiserver' provider full, as in a cluster with an API server. Resolves with the count.
 */
async function writeSpecsFor(
  nats: NatsInstance,
  node: string,
  signal: AbortSignal,
): Promise<number> {
  const bus = await connectBus({ servers: nats.url, cluster: DEFAULT_CLUSTER, log: () => {} });
  try {
    const kv = await openSpecsBucket(bus);
    const epoch = newApiEpoch();
    while (!signal.aborted) {
      const view = (await readLive(bus)).states.get(node)?.view;
      const pods = Object.values(view?.pods ?? {});
      if (pods.length >= 110) {
        for (const p of pods) {
          const record: PodSpecRecord = {
            v: 1,
            cluster: DEFAULT_CLUSTER,
            node,
            epoch,
            t: Date.now(),
            uid: p.uid,
            pod: {
              metadata: { name: p.name, namespace: p.namespace, uid: p.uid },
              spec: {
                nodeName: node,
                restartPolicy: 'Always',
                terminationGracePeriodSeconds: 30,
                containers: p.spec.containers.map((name) => ({
                  name,
                  image: 'registry.example/app:1',
                  readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 10 },
                  resources: { requests: { cpu: '100m', memory: '128Mi' } },
                })),
              },
              status: { phase: 'Running' },
            },
          };
          await kv.put(bus.names.podSpecKey(node, p.uid), encodeSpecRecord(record));
        }
        return pods.length;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return 0;
  } finally {
    await bus.close();
  }
}

export async function runAgent(
  command: string[],
  env: Record<string, string | undefined>,
  endpoint: string,
  nats: NatsInstance,
  sim: SimProcess,
  options: { warmupS: number; windowS: number },
): Promise<AgentRun> {
  const agent = spawn(
    process.execPath,
    [
      ...command,
      '--cri',
      endpoint,
      '--nats',
      nats.url,
      '--listen',
      '127.0.0.1:0',
      '--relist',
      '1s',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
  );
  let stderr = '';
  const stopSpecs = new AbortController();
  const specs = writeSpecsFor(nats, endpoint.split('=')[0] as string, stopSpecs.signal).catch(
    () => 0,
  );
  agent.stderr.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-8000)));
  const pid = agent.pid as number;
  try {
    await sim.autochurn(1);
    await new Promise((r) => setTimeout(r, options.warmupS * 1000));
    // The node state with every pod reaches KV at the agent's state period (10 s): the window
    // starts once the specs are written (or 30 s more have passed without them).
    const giveUp = setTimeout(() => stopSpecs.abort(), 30_000);
    const specsWritten = await specs;
    clearTimeout(giveUp);
    // Their arrival re-derives every pod once (its spec source changes): not the steady state.
    if (specsWritten > 0) await new Promise((r) => setTimeout(r, 3_000));
    if (agent.exitCode !== null) throw new Error(`agent exited: ${stderr}`);
    const t0 = Date.now();
    const c0 = procCpuTicks(pid);
    // Resident memory sampled every second: one reading lands anywhere between two collections
    // (a young generation full or just emptied is tens of MiB apart), the median does not.
    const rss: number[] = [];
    while (Date.now() - t0 < options.windowS * 1000) {
      await new Promise((r) => setTimeout(r, 1000));
      rss.push(procRssMb(pid));
    }
    const c1 = procCpuTicks(pid);
    const elapsedS = (Date.now() - t0) / 1000;
    await sim.autochurn(0);
    const address = /http:\/\/([\d.]+:\d+)/.exec(stderr)?.[1];
    return {
      rssMb: median(rss),
      rssMaxMb: Math.max(...rss),
      cpuPct: ((c1 - c0) / TICKS_PER_S / elapsedS) * 100,
      memory: address ? await memoryOf(address) : {},
      specs: specsWritten,
    };
  } finally {
    stopSpecs.abort();
    agent.kill('SIGTERM');
    await new Promise((r) => agent.once('exit', r));
  }
}

export async function benchAgent(options: {
  warmupS: number;
  windowS: number;
  log: (line: string) => void;
}): Promise<{ agent_rss_mb: number; agent_cpu_pct: number; details: object }> {
  const bundleDir = mkdtempSync(join(tmpdir(), 'podscope-bench-agent-'));
  const nats = await startNats();
  const sim = await SimProcess.start();
  try {
    options.log('agent: bundling it as the image does (esbuild) …');
    await bundleCli(ROOT, bundleDir);
    const processEnv = processTuning(ROOT, 'agent');
    const [node] = await sim.grow(1, { pods: 110, containers: 3 });
    if (!node) throw new Error('the simulator made no node');
    const endpoint = `${node.name}=${node.endpoint}`;
    const bundled = await runAgent(
      [join(bundleDir, 'agent.mjs'), 'agent'],
      processEnv,
      endpoint,
      nats,
      sim,
      options,
    );
    options.log(
      `agent (bundle, ${JSON.stringify(processEnv)}): ${bundled.rssMb.toFixed(1)} MiB resident, ${bundled.cpuPct.toFixed(2)} % of a core; ${JSON.stringify(bundled.memory)}`,
    );
    const tsx = await runAgent(
      [join(ROOT, 'bin/podscope.mjs'), 'agent'],
      processEnv,
      endpoint,
      nats,
      sim,
      { warmupS: options.warmupS, windowS: Math.min(options.windowS, 15) },
    );
    options.log(`agent (tsx): ${tsx.rssMb.toFixed(1)} MiB resident, ${tsx.cpuPct.toFixed(2)} %`);
    return {
      agent_rss_mb: round(bundled.rssMb, 1),
      agent_cpu_pct: round(bundled.cpuPct, 2),
      details: {
        run_as:
          'node cli/agent.mjs agent (the image bundle) with the DaemonSet NODE_OPTIONS and GLIBC_TUNABLES',
        node_options: processEnv.NODE_OPTIONS ?? '',
        glibc_tunables: processEnv.GLIBC_TUNABLES ?? '',
        pods: 110,
        containers_per_pod: 3,
        relist_ms: 1000,
        churn_per_s: 1,
        window_s: options.windowS,
        rss_max_mb: round(bundled.rssMaxMb, 1),
        api_pod_specs: bundled.specs,
        memory_mb: bundled.memory,
        tsx: { rss_mb: round(tsx.rssMb, 1), cpu_pct: round(tsx.cpuPct, 2) },
      },
    };
  } finally {
    await sim.stop();
    await nats.destroy();
    rmSync(bundleDir, { recursive: true, force: true });
  }
}
