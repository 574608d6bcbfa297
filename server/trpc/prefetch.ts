/**
 * tRPC reads a subscription one item ahead: while it writes an item to the response (its SSE
 * `withPing`), it has already asked the generator for the next one. A stream that ends with an
 * error while the writer is still busy with the item before — cluster.watch ending a subscriber
 * that fell behind, whose response is backed up by definition — rejects that prefetched `next()`
 * with nobody awaiting it yet: Node reports an unhandledRejection (Next prints it as
 * `⨯ unhandledRejection`), although tRPC takes the error a moment later and sends it to the
 * client as the stream's last message.
 *
 * `awaitedAhead` marks each `next()` promise as handled; the same promise still rejects for
 * tRPC, so the client gets the error exactly as before.
 */
export function awaitedAhead<T, R, N>(inner: AsyncGenerator<T, R, N>): AsyncGenerator<T, R, N> {
  const handled = <P extends Promise<unknown>>(p: P): P => {
    p.catch(() => undefined);
    return p;
  };
  const outer: AsyncGenerator<T, R, N> = {
    next: (...args: [] | [N]) => handled(inner.next(...args)),
    return: (value) => handled(inner.return(value)),
    throw: (err: unknown) => handled(inner.throw(err)),
    [Symbol.asyncIterator]: () => outer,
  };
  return outer;
}
