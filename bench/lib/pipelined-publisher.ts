/**
 * Publishing to JetStream as a busy producer does: each message a core NATS publish whose reply
 * subject is one of a shared inbox's, the stream's acknowledgements (PubAcks) read by one
 * subscription on that inbox — not `js.publish`'s request per message, which makes a promise, a
 * timer and two Error objects for each (measured here: ~31 µs of the publisher's CPU and ~10 µs
 * of nats-server's a 2.4 KB message, against ~9 and ~8 this way).
 *
 * The cluster bench's load generator floods as a hundred agents from one process, so what it
 * spends per message is CPU the console under test does not get. One agent publishes a few
 * messages a second, where the difference is nothing: the agent keeps `js.publish`
 * (server/cluster/bus/publisher.ts).
 *
 *   const pub = new PipelinedPublisher(nc);
 *   pub.publish(subject, bytes, msgID, (err, ack) => …);   // ack: { seq, duplicate }
 *   pub.close();
 */
import {
  createInbox,
  headers,
  type Msg,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import { MSG_ID_HEADER } from '@/server/cluster/envelope';

export interface PubAck {
  /** The stream sequence JetStream stored the message at (the earlier one for a duplicate). */
  seq: number;
  /** JetStream had the message id already (its duplicate window). */
  duplicate: boolean;
}

export type PublishDone = (err: Error | undefined, ack?: PubAck) => void;

export class PipelinedPublisher {
  private readonly inbox = createInbox();
  private readonly sub: Subscription;
  private readonly pending = new Map<number, { done: PublishDone; at: number }>();
  private next = 0;
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(
    private readonly nc: NatsConnection,
    /** How long an acknowledgement may take before the publish fails. */
    private readonly timeoutMs = 30_000,
  ) {
    this.sub = nc.subscribe(`${this.inbox}.*`, {
      callback: (err, msg) => this.reply(err, msg),
    });
    this.sweeper = setInterval(() => this.expire(), Math.min(1_000, timeoutMs));
    this.sweeper.unref();
  }

  /** Messages published and not yet acknowledged. */
  get inFlight(): number {
    return this.pending.size;
  }

  publish(subject: string, data: Uint8Array, msgID: string, done: PublishDone): void {
    const n = ++this.next;
    const h = headers();
    h.set(MSG_ID_HEADER, msgID);
    this.pending.set(n, { done, at: Date.now() });
    try {
      this.nc.publish(subject, data, { reply: `${this.inbox}.${n}`, headers: h });
    } catch (err) {
      this.pending.delete(n);
      done(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private reply(err: Error | null, msg: Msg): void {
    if (err) {
      // The subscription itself failed (the connection closed): every publish still waiting fails.
      this.failAll(err);
      return;
    }
    const n = Number(msg.subject.slice(this.inbox.length + 1));
    const waiting = this.pending.get(n);
    if (!waiting) return; // expired already, or not ours
    this.pending.delete(n);
    const answer = PipelinedPublisher.ackOf(msg);
    if (answer instanceof Error) waiting.done(answer);
    else waiting.done(undefined, answer);
  }

  /** What JetStream answered: a PubAck, its error, or no stream listening on the subject. */
  static ackOf(msg: Msg): PubAck | Error {
    if (msg.headers?.code === 503)
      return new Error('no JetStream stream takes this subject (503 no responders)');
    let body: {
      seq?: unknown;
      duplicate?: unknown;
      error?: { code?: number; description?: string };
    };
    try {
      body = JSON.parse(msg.string()) as typeof body;
    } catch {
      return new Error(`not a PubAck: ${msg.string().slice(0, 100)}`);
    }
    if (body.error)
      return new Error(`JetStream refused the message: ${body.error.description ?? 'no reason'}`);
    if (typeof body.seq !== 'number')
      return new Error(`not a PubAck: ${msg.string().slice(0, 100)}`);
    return { seq: body.seq, duplicate: body.duplicate === true };
  }

  private expire(): void {
    const cut = Date.now() - this.timeoutMs;
    for (const [n, waiting] of this.pending) {
      if (waiting.at > cut) break; // in publish order, so the rest are younger
      this.pending.delete(n);
      waiting.done(new Error(`no PubAck within ${this.timeoutMs} ms`));
    }
  }

  private failAll(err: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const w of waiting) w.done(err);
  }

  /** Stops reading acknowledgements; publishes still waiting fail. */
  close(): void {
    clearInterval(this.sweeper);
    this.sub.unsubscribe();
    this.failAll(new Error('publisher closed'));
  }
}
