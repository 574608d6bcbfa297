/**
 * `podscope sim` as a child process, the way a user runs it for crictl or critest: one node,
 * its endpoint read from the first stdout line, stopped with SIGTERM (which removes the socket).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(__dirname, '..', '..');

export interface SimProcess {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startSimProcess(timeoutMs = 60_000): Promise<SimProcess> {
  const socketDir = mkdtempSync(join(tmpdir(), 'podscope-simcli-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'podscope.mjs'), 'sim', '--nodes', '1', '--socket-dir', socketDir],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const endpoint = await new Promise<string>((resolveLine, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`podscope sim printed no endpoint in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    if (!child.stdout) throw new Error('podscope sim: no stdout pipe');
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      clearTimeout(timer);
      const m = /^\S+ (unix:\/\/\S+)$/.exec(line);
      if (m?.[1]) resolveLine(m[1]);
      else reject(new Error(`unexpected first line from podscope sim: ${line}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`podscope sim exited (${code}) before serving: ${stderr}`));
    });
  });
  return {
    endpoint,
    stop: () =>
      new Promise<void>((done) => {
        const finish = () => {
          rmSync(socketDir, { recursive: true, force: true });
          done();
        };
        if (child.exitCode !== null) return finish();
        child.once('exit', finish);
        child.kill('SIGTERM');
      }),
  };
}
