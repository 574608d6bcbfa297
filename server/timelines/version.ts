/** The Podscope version written into timeline files (`source.podscope`). */
import pkg from '@/package.json';

export const PODSCOPE_VERSION: string = pkg.version;
