/**
 * The `podscope` CLI as the image runs it: bundled by esbuild (scripts/image.mjs) into one file,
 * so the image carries no TypeScript compiler and writes no compile cache at run time.
 */
import { main } from '../../server/cli/main';

process.exitCode = await main(process.argv.slice(2));
