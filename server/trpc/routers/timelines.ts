/**
 * Saved incident timelines: save a period of the live recording, list, get (everything the share
 * page replays), annotate, delete, and import a file. Every input is validated with the same
 * limits the store and the file format apply; refusals of a file come back as data with located
 * issues, not as an exception, so the import UI can list them.
 */
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { DEFAULT_LIMITS, isTimelineFileError, type FileErrorData } from '@/lib/timeline/file';
import { isPodscopeStoreError, type SavedTimelineSummary } from '@/server/timeline-db';
import { visibleTimeline } from '@/server/security/visible';
import { mutationProcedure, readProcedure, router } from '../init';

const time = z.number().finite().min(0).max(8.64e15);
/** Saved timeline ids are 128 random bits in base64url (server/timeline-db). */
export const timelineId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a timeline id is letters, digits, - and _');

const codePoints = (s: string) => [...s].length;
const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

const annotation = z.object({
  t: time,
  entity: z
    .string()
    .min(1)
    .refine(
      (s) => codePoints(s) <= DEFAULT_LIMITS.entityChars,
      `at most ${DEFAULT_LIMITS.entityChars} characters`,
    )
    .optional(),
  text: z
    .string()
    .refine((s) => s.trim() !== '', 'an annotation needs text')
    .refine(
      (s) => utf8Bytes(s) <= DEFAULT_LIMITS.annotationBytes,
      `at most ${DEFAULT_LIMITS.annotationBytes} bytes`,
    ),
});

const saveInput = z
  .object({
    title: z
      .string()
      .refine((s) => s.trim() !== '', 'a saved timeline needs a title')
      .refine(
        (s) => codePoints(s) <= DEFAULT_LIMITS.titleChars,
        `at most ${DEFAULT_LIMITS.titleChars} characters`,
      ),
    notes: z
      .string()
      .refine(
        (s) => utf8Bytes(s) <= DEFAULT_LIMITS.notesBytes,
        `at most ${DEFAULT_LIMITS.notesBytes} bytes`,
      )
      .optional(),
    from: time,
    to: time,
    annotations: z.array(annotation).max(DEFAULT_LIMITS.annotations).optional(),
  })
  .refine((q) => q.from <= q.to, { message: '`from` must not be after `to`', path: ['to'] })
  .refine((q) => (q.annotations ?? []).every((a) => a.t >= q.from && a.t <= q.to), {
    message: 'annotations must fall within [from, to]',
    path: ['annotations'],
  });

/** JSON text, or base64 of a (gzip) file: at most the file limit, plus base64's third. */
const MAX_IMPORT_CHARS = Math.ceil((DEFAULT_LIMITS.maxBytes * 4) / 3) + 1024;

export type ImportResult =
  { ok: true; id: string; timeline: SavedTimelineSummary } | { ok: false; error: FileErrorData };

/**
 * Store errors in the API's terms, without the server's file path. Recognised by their brand,
 * not `instanceof`: the store's module can exist twice in a Next.js build.
 */
function toTrpcError(err: unknown): unknown {
  if (!isPodscopeStoreError(err)) return err;
  const code =
    err.code === 'NOT_FOUND'
      ? 'NOT_FOUND'
      : err.code === 'INVALID' || err.code === 'TOO_LARGE' || err.code === 'NOT_RETAINED'
        ? 'BAD_REQUEST'
        : err.code === 'QUOTA'
          ? 'PRECONDITION_FAILED'
          : err.code === 'UNAVAILABLE'
            ? 'SERVICE_UNAVAILABLE'
            : 'INTERNAL_SERVER_ERROR';
  return new TRPCError({ code, message: err.publicMessage, cause: err });
}

/** Runs a storage call, turning its errors into TRPCErrors. */
async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toTrpcError(err);
  }
}

export const timelinesRouter = router({
  save: mutationProcedure
    .input(saveInput)
    .mutation(({ ctx, input }) => guard(() => ctx.timelines.savePeriod(input))),

  list: readProcedure.query(({ ctx }) => guard(() => ctx.timelines.list())),

  get: readProcedure
    .input(z.object({ id: timelineId }))
    .query(async ({ ctx, input }) =>
      visibleTimeline(ctx.viewer, await guard(() => ctx.timelines.get(input.id))),
    ),

  annotate: mutationProcedure
    .input(annotation.extend({ id: timelineId }))
    .mutation(({ ctx, input }) => {
      const { id, ...a } = input;
      return guard(() => ctx.timelines.annotate(id, a));
    }),

  delete: mutationProcedure.input(z.object({ id: timelineId })).mutation(async ({ ctx, input }) => {
    if (!(await guard(() => ctx.timelines.delete(input.id))))
      throw new TRPCError({
        code: 'NOT_FOUND',
        message: `no saved timeline with id ${JSON.stringify(input.id)}`,
      });
    return { ok: true as const };
  }),

  import: mutationProcedure
    .input(z.object({ file: z.string().min(1).max(MAX_IMPORT_CHARS) }))
    .mutation(async ({ ctx, input }): Promise<ImportResult> => {
      try {
        const timeline = await ctx.timelines.importText(input.file);
        return { ok: true, id: timeline.id, timeline };
      } catch (err) {
        if (isTimelineFileError(err)) return { ok: false, error: err.toData() };
        throw toTrpcError(err);
      }
    }),
});
