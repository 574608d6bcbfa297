/**
 * Publishing to the cluster bus: what an agent sends (and the API-view leader, its events):
 * stream messages under their (node, epoch, seq) message id, and the node's heartbeat and latest
 * full state into the KV bucket. Writing only: nothing here parses what the bus holds.
 */
import {
  encodeMessage,
  messageId,
  type BusMessage,
  type Heartbeat,
  type NodeState,
} from '../envelope';
import type { BusConnection } from './connection';

export class BusPublisher {
  constructor(readonly bus: BusConnection) {}

  /** Publishes one message with its (node, epoch, seq) message id; waits for the stream's ack. */
  async publish(
    msg: BusMessage,
    timeoutMs = 5_000,
  ): Promise<{ streamSeq: number; duplicate: boolean }> {
    const { js, names } = this.bus;
    const ack = await js.publish(names.eventSubject(msg.node), encodeMessage(msg), {
      msgID: messageId(msg),
      timeout: timeoutMs,
    });
    return { streamSeq: ack.seq, duplicate: ack.duplicate };
  }

  putHeartbeat(hb: Heartbeat): Promise<number> {
    return this.bus.live.put(this.bus.names.heartbeatKey(hb.node), encodeMessage(hb));
  }

  putState(state: NodeState): Promise<number> {
    return this.bus.live.put(this.bus.names.stateKey(state.node), encodeMessage(state));
  }
}
