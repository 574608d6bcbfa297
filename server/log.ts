/**
 * The server's logs, with pino: one JSON object a line in production, readable lines in a
 * terminal (stderr is a TTY), both on stderr — stdout belongs to the CLI's products (JSON,
 * NDJSON). pino-pretty runs as a synchronous stream in this thread: pino's transports run in
 * worker threads, which Next's server bundle cannot start.
 *
 * Modules take a `LogFn` (a line and a level), so they stay free of pino and tests can collect
 * lines; the composition root binds it to a logger with `logFn`. Each HTTP request logs through
 * a child carrying its request id (`requestLogger`).
 *
 * PODSCOPE_LOG_LEVEL: trace, debug, info (default), warn, error, fatal or silent.
 */
import { randomUUID } from 'node:crypto';
import pino, { type Level, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type LogLevel = Extract<Level, 'debug' | 'info' | 'warn' | 'error'>;
/** How modules log: a line, at `info` unless told otherwise. */
export type LogFn = (line: string, level?: LogLevel) => void;
export type { Logger } from 'pino';

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']);

export interface LoggerOptions {
  level?: string;
  /** Readable lines instead of JSON (default: stderr is a TTY). */
  pretty?: boolean;
  /** Where lines go (default stderr). */
  destination?: NodeJS.WritableStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const wanted = options.level ?? process.env.PODSCOPE_LOG_LEVEL ?? 'info';
  const level = LEVELS.has(wanted) ? wanted : 'info';
  const base = { level, base: { name: 'podscope' } };
  const prettyOut = options.pretty ?? process.stderr.isTTY === true;
  const logger = prettyOut
    ? pino(
        base,
        pretty({
          sync: true,
          colorize: options.destination === undefined && process.stderr.isTTY === true,
          ignore: 'pid,hostname,name',
          translateTime: 'SYS:HH:MM:ss.l',
          destination: options.destination ?? 2,
        }),
      )
    : pino(base, options.destination ?? pino.destination({ dest: 2, sync: true }));
  if (level !== wanted) logger.warn(`PODSCOPE_LOG_LEVEL=${wanted} is not a level; using info`);
  return logger;
}

let root: Logger | undefined;

/** The process's logger (created on first use). */
export function rootLogger(): Logger {
  return (root ??= createLogger());
}

/** A LogFn writing to this logger. */
export function logFn(logger: Logger): LogFn {
  return (line, level = 'info') => logger[level](line);
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * A child logger for one request: its id from a well-formed `x-request-id` header (a proxy's),
 * else a new one. The id goes back in the response's `x-request-id`.
 */
export function requestLogger(
  req: Request,
  parent: Logger = rootLogger(),
): {
  log: Logger;
  requestId: string;
} {
  const given = req.headers.get('x-request-id');
  const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
  return { log: parent.child({ reqId: requestId }), requestId };
}

/**
 * Runs a route handler with its request's logger: the response carries `x-request-id`, and an
 * unexpected error is logged with it and answered 500 with the id (never the error's text).
 */
export async function withRequestLog(
  req: Request,
  what: string,
  handle: (log: Logger) => Promise<Response>,
  parent: Logger = rootLogger(),
): Promise<Response> {
  const { log, requestId } = requestLogger(req, parent);
  let response: Response;
  try {
    response = await handle(log);
  } catch (err) {
    log.error({ err }, `${what} failed`);
    response = Response.json(
      { error: { code: 'INTERNAL', message: `${what} failed (request ${requestId})` } },
      { status: 500 },
    );
  }
  const headers = new Headers(response.headers);
  headers.set('x-request-id', requestId);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
