/**
 * A throw-away self-signed certificate for the fake API server, made with the openssl CLI (Node
 * has no API to issue X.509 certificates). The kubeconfig then carries it as the cluster CA, so
 * the client verifies TLS exactly as against a real API server. Where openssl is missing the
 * fake serves plain HTTP and the kubeconfig sets `skipTLSVerify: true` (the only way client-node
 * 2.x accepts an http:// server).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsMaterial {
  cert: string;
  key: string;
}

export function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function selfSignedCert(): TlsMaterial {
  const dir = mkdtempSync(join(tmpdir(), 'podscope-fake-apiserver-tls-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=podscope-fake-apiserver',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
