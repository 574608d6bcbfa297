/**
 * A minimal, reproducible POSIX ustar writer: the image layer and the OCI layout archive are
 * built in memory with fixed owners (0:0), fixed mtime (0) and a caller-given order, so the same
 * inputs always give the same bytes — and therefore the same sha256 digests. This is what
 * `tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner` gives, without depending on
 * the host's tar.
 */

export type TarEntry =
  | { type: 'file'; path: string; mode: number; data: Uint8Array }
  | { type: 'dir'; path: string; mode: number }
  | { type: 'symlink'; path: string; target: string };

const BLOCK = 512;

/** Writes `value` as a NUL-terminated, zero-padded octal number filling `width` bytes. */
function octal(value: number, width: number): string {
  const digits = value.toString(8).padStart(width - 1, '0');
  if (digits.length > width - 1) throw new Error(`tar: ${value} does not fit in ${width} bytes`);
  return `${digits}\0`;
}

function put(header: Uint8Array, offset: number, width: number, text: string): void {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > width) throw new Error(`tar: "${text}" is longer than ${width} bytes`);
  header.set(bytes, offset);
}

function header(entry: TarEntry): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const name = entry.type === 'dir' && !entry.path.endsWith('/') ? `${entry.path}/` : entry.path;
  if (new TextEncoder().encode(name).length > 100) {
    throw new Error(`tar: path "${name}" is longer than 100 bytes (no prefix support needed here)`);
  }
  const mode = entry.type === 'symlink' ? 0o777 : entry.mode;
  const size = entry.type === 'file' ? entry.data.length : 0;
  put(h, 0, 100, name);
  put(h, 100, 8, octal(mode, 8));
  put(h, 108, 8, octal(0, 8)); // uid
  put(h, 116, 8, octal(0, 8)); // gid
  put(h, 124, 12, octal(size, 12));
  put(h, 136, 12, octal(0, 12)); // mtime
  put(h, 148, 8, '        '); // checksum placeholder: eight spaces while summing
  put(h, 156, 1, entry.type === 'file' ? '0' : entry.type === 'dir' ? '5' : '2');
  if (entry.type === 'symlink') put(h, 157, 100, entry.target);
  put(h, 257, 6, 'ustar\0');
  put(h, 263, 2, '00');
  // uname/gname stay empty, as with --numeric-owner.
  put(h, 329, 8, octal(0, 8)); // devmajor
  put(h, 337, 8, octal(0, 8)); // devminor
  let sum = 0;
  for (const byte of h) sum += byte;
  put(h, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/** The archive: one header per entry, file data padded to 512 bytes, two zero blocks at the end. */
export function writeTar(entries: readonly TarEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (const entry of entries) {
    const h = header(entry);
    parts.push(h);
    total += h.length;
    if (entry.type === 'file' && entry.data.length > 0) {
      const padded = Math.ceil(entry.data.length / BLOCK) * BLOCK;
      const body = new Uint8Array(padded);
      body.set(entry.data);
      parts.push(body);
      total += padded;
    }
  }
  total += 2 * BLOCK;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
