/**
 * agent_rss_mb and agent_cpu_pct: one `podscope agent` process (started exactly as a DaemonSet
 * would run it, `node bin/podscope.mjs agent …`) watching one simulated node of 110 pods × 3
 * containers at the kubelet's 1 s relist, publishing to a real loopback nats-server, with a
 * light crash-loop churn (1 container change per second). The simulator runs in its own process,
 * so the figures are the agent's alone: resident memory (VmRSS) at the end of the window, and
 * CPU (utime + stime from /proc) over the window as a share of one core.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startNats } from '@/test/cluster/harness';
import { ROOT } from '../lib/server';
import { SimProcess } from '../lib/sim-process';

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

export async function benchAgent(options: {
  warmupS: number;
  windowS: number;
  log: (line: string) => void;
}): Promise<{ agent_rss_mb: number; agent_cpu_pct: number; details: object }> {
  const nats = await startNats();
  const sim = await SimProcess.start();
  try {
    const [node] = await sim.grow(1, { pods: 110, containers: 3 });
    if (!node) throw new Error('the simulator made no node');
    const agent = spawn(
      process.execPath,
      [
        join(ROOT, 'bin/podscope.mjs'),
        'agent',
        '--cri',
        `${node.name}=${node.endpoint}`,
        '--nats',
        nats.url,
        '--listen',
        '127.0.0.1:0',
        '--relist',
        '1s',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    agent.stderr.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
    const pid = agent.pid as number;
    try {
      await sim.autochurn(1);
      await new Promise((r) => setTimeout(r, options.warmupS * 1000));
      if (agent.exitCode !== null) throw new Error(`agent exited: ${stderr}`);
      const t0 = Date.now();
      const c0 = procCpuTicks(pid);
      await new Promise((r) => setTimeout(r, options.windowS * 1000));
      const c1 = procCpuTicks(pid);
      const elapsedS = (Date.now() - t0) / 1000;
      const cpuPct = ((c1 - c0) / TICKS_PER_S / elapsedS) * 100;
      const rss = procRssMb(pid);
      options.log(`agent: ${rss.toFixed(1)} MiB resident, ${cpuPct.toFixed(2)} % of a core`);
      return {
        agent_rss_mb: Math.round(rss * 10) / 10,
        agent_cpu_pct: Math.round(cpuPct * 100) / 100,
        details: {
          pods: 110,
          containers_per_pod: 3,
          relist_ms: 1000,
          churn_per_s: 1,
          window_s: elapsedS,
        },
      };
    } finally {
      agent.kill('SIGTERM');
      await new Promise((r) => agent.once('exit', r));
    }
  } finally {
    await sim.stop();
    await nats.destroy();
  }
}
