import { readFile } from 'node:fs/promises';
import { demoAssetPath } from '@/server/demo/asset';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The browser demo's recording (`?source=demo`), a timeline file made when the console was built
 * (server/demo/asset.ts). 404 with a sentence when this build has none.
 */
export async function GET(): Promise<Response> {
  let text: string;
  try {
    text = await readFile(demoAssetPath(process.cwd()), 'utf8');
  } catch {
    return Response.json(
      {
        error:
          'This server has no demo recording. `npm start` records one when it builds the console; `node scripts/record-demo.mjs` records one now.',
      },
      { status: 404, headers: { 'cache-control': 'no-store' } },
    );
  }
  return new Response(text, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' },
  });
}
