/**
 * Container log files in the CRI format, as containerd's CRI plugin writes them
 * (pkg/cri/io/logger.go redirectLogs, containerd 1.6): one line per output line,
 * `<RFC3339Nano time> <stdout|stderr> <F|P> <text>`, F for a full line (also the last line of a
 * stream that ends without a newline), P for a piece of a line longer than the buffer. The file
 * is opened when the container starts as containerd's openLogFile does (pkg/cri/server/
 * helpers_linux.go: parent folders made 0755, file created 0640 and appended to; an error fails
 * the start), and ReopenContainerLog closes it and opens the path again, so a rotated file stops
 * growing and a new one starts.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** containerd's defaultBufSize / max line piece (16 KiB, `max_container_log_line_size`). */
export const MAX_LOG_LINE_BYTES = 16 * 1024;

export type LogStream = 'stdout' | 'stderr';

/** Go's time.RFC3339Nano in UTC: fraction to nanoseconds with trailing zeros dropped. */
export function rfc3339Nano(epochMs: number): string {
  const whole = Math.floor(epochMs / 1000);
  const nanos = Math.round((epochMs - whole * 1000) * 1e6);
  const base = new Date(whole * 1000).toISOString().slice(0, 19);
  const frac = nanos > 0 ? `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}` : '';
  return `${base}${frac}Z`;
}

/** Splits off the longest head of at most `max` bytes that ends on a UTF-8 character boundary. */
export function splitAtBytes(text: string, max: number): [string, string] {
  const bytes = Buffer.from(text);
  if (bytes.length <= max) return [text, ''];
  let i = max;
  while (i > 0 && ((bytes[i] ?? 0) & 0xc0) === 0x80) i--;
  return [bytes.subarray(0, i).toString(), bytes.subarray(i).toString()];
}

/** containerd's openLogFile. */
function openLogFile(path: string): number {
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  return openSync(path, 'a', 0o640);
}

export class ContainerLog {
  private fd: number | undefined;
  private readonly pending: Record<LogStream, string> = { stdout: '', stderr: '' };

  /** Opens (creates) the file; throws the open error (ENOENT for a missing directory). */
  constructor(
    readonly path: string,
    private readonly now: () => number,
  ) {
    this.fd = openLogFile(path);
  }

  /** Output of the container's process: complete lines go to the file at once. */
  write(stream: LogStream, text: string): void {
    if (this.fd === undefined) return;
    let buf = this.pending[stream] + text;
    let nl = buf.indexOf('\n');
    while (nl >= 0) {
      this.line(stream, buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      nl = buf.indexOf('\n');
    }
    while (Buffer.byteLength(buf) > MAX_LOG_LINE_BYTES) {
      const [piece, rest] = splitAtBytes(buf, MAX_LOG_LINE_BYTES);
      this.put(stream, 'P', piece);
      buf = rest;
    }
    this.pending[stream] = buf;
  }

  private line(stream: LogStream, text: string): void {
    let rest = text;
    while (Buffer.byteLength(rest) > MAX_LOG_LINE_BYTES) {
      const [piece, after] = splitAtBytes(rest, MAX_LOG_LINE_BYTES);
      this.put(stream, 'P', piece);
      rest = after;
    }
    this.put(stream, 'F', rest);
  }

  private put(stream: LogStream, tag: 'F' | 'P', text: string): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, `${rfc3339Nano(this.now())} ${stream} ${tag} ${text}\n`);
  }

  /** ReopenContainerLog: the path is opened again (a new file if the old one was moved). */
  reopen(): void {
    const next = openLogFile(this.path);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = next;
  }

  /** The streams ended: a last line without a newline is still a full line. */
  close(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.pending[stream] !== '') this.line(stream, this.pending[stream]);
      this.pending[stream] = '';
    }
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
