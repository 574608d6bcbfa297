/**
 * Loads proto/runtime/v1/api.proto at run time with @grpc/proto-loader. The options here are the
 * ones server/cri/generate.sh gives proto-loader-gen-types, so the generated `__Output` types
 * describe exactly the objects grpc-js hands back: field names as in the .proto (keepCase),
 * int64 as decimal strings (nanosecond timestamps exceed 2^53), enums as their names, unset
 * scalars as defaults, unset messages as null.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSync } from '@grpc/proto-loader';
import type { PackageDefinition } from '@grpc/proto-loader';
import type { ImageServiceDefinition } from './generated/runtime/v1/ImageService';
import type { RuntimeServiceDefinition } from './generated/runtime/v1/RuntimeService';

export const PROTO_RELATIVE_PATH = join('proto', 'runtime', 'v1', 'api.proto');

export const LOADER_OPTIONS = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
} as const;

export const RUNTIME_SERVICE = 'runtime.v1.RuntimeService';
export const IMAGE_SERVICE = 'runtime.v1.ImageService';

function moduleDir(): string | undefined {
  try {
    return dirname(fileURLToPath(import.meta.url));
  } catch {
    // Bundlers may rewrite import.meta.url to something that is not a file URL.
    return undefined;
  }
}

/** Walks up from `start` to the first folder holding proto/runtime/v1/api.proto. */
export function findProjectRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, PROTO_RELATIVE_PATH))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Absolute path of api.proto: found from this module upwards, else from the working directory. */
export function criProtoPath(): string {
  const candidates = [moduleDir(), process.cwd()].filter((d): d is string => d !== undefined);
  for (const start of candidates) {
    const root = findProjectRoot(start);
    if (root) return join(root, PROTO_RELATIVE_PATH);
  }
  throw new Error(
    `cannot find ${PROTO_RELATIVE_PATH} above ${candidates.join(' or ')}; ` +
      'the proto/ folder must ship with the server',
  );
}

export interface CriDefinitions {
  packageDefinition: PackageDefinition;
  runtime: RuntimeServiceDefinition;
  image: ImageServiceDefinition;
}

let cached: CriDefinitions | undefined;

/** Parsed once per process; every client and every simulated node shares it. */
export function criDefinitions(): CriDefinitions {
  if (cached) return cached;
  const packageDefinition = loadSync(criProtoPath(), LOADER_OPTIONS);
  const runtime = packageDefinition[RUNTIME_SERVICE];
  const image = packageDefinition[IMAGE_SERVICE];
  if (!runtime || !image || 'format' in runtime || 'format' in image) {
    throw new Error(
      `${PROTO_RELATIVE_PATH} does not define ${RUNTIME_SERVICE} and ${IMAGE_SERVICE}`,
    );
  }
  // proto-loader types services structurally (method name → MethodDefinition<object, object>);
  // the generated definitions name the same methods with their message types.
  cached = {
    packageDefinition,
    runtime: runtime as unknown as RuntimeServiceDefinition,
    image: image as unknown as ImageServiceDefinition,
  };
  return cached;
}
