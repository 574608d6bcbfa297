// Types of prepare.mjs (plain JavaScript: `npm start` and `npm test` run it before tsx is there).
export const root: string;
export function log(message: string): void;
export function run(cmd: string, args: string[], opts?: object): void;
export function lockedPackages(
  lockText: string,
): Map<string, { version: string | undefined; optional: boolean }>;
export function nodeModulesCurrent(dir?: string): boolean;
export function ensureNodeModules(): void;
export function sourceStamp(paths?: string[]): string;
export const DEMO_SOURCES: string[];
export function ensureDemoRecording(): Promise<boolean>;
export function ensureBuild(options?: { force?: boolean; standalone?: boolean }): void;
export function ensureAptPackages(packages: string[]): void;
export const TEST_PACKAGES: string[];
