/**
 * `podscope agent` as the image runs it: its own bundle (scripts/image.mjs), holding only the
 * agent's modules (server/cli/agent-main.ts), so a DaemonSet pod parses and keeps no more code
 * than the agent needs.
 */
import { main } from '../../server/cli/agent-main';

process.exitCode = await main(process.argv.slice(2));
