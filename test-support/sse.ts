/**
 * A Server-Sent Events reader for tests and benchmarks: reads a `text/event-stream` answer event by event,
 * recording each `data:` payload (parsed as JSON) with the time it arrived. No test runner imports: the latency
 * benchmark uses it too.
 */
export interface StreamedEvent<T> {
  data: T;
  /** performance.now() when the event's last line arrived. */
  at: number;
}

export interface EventStream<T> {
  status: number;
  headers: Headers;
  /** Every event until the server ends the stream (or `stop()`); heartbeat comments counted apart. */
  events: Promise<StreamedEvent<T>[]>;
  heartbeats(): number;
  /** Called with each event as it arrives. */
  onEvent(listener: (e: StreamedEvent<T>) => void): void;
  stop(): void;
}

/** Opens `url` with `fetcher` (a visitor's fetch, with its cookies) and reads it as an event stream. */
export async function openEventStream<T = Record<string, unknown>>(
  fetcher: (url: string, init: RequestInit) => Promise<Response>,
  url: string,
): Promise<EventStream<T>> {
  const abort = new AbortController();
  const res = await fetcher(url, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
  const listeners: ((e: StreamedEvent<T>) => void)[] = [];
  let heartbeats = 0;
  const read = async (): Promise<StreamedEvent<T>[]> => {
    const out: StreamedEvent<T>[] = [];
    if (!res.body || !res.ok) return out;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trimStart())
            .join('\n');
          if (block.startsWith(':')) heartbeats++;
          if (!data) continue;
          const event = { data: JSON.parse(data) as T, at: performance.now() };
          out.push(event);
          for (const l of listeners) l(event);
        }
      }
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    }
    return out;
  };
  return {
    status: res.status,
    headers: res.headers,
    events: read(),
    heartbeats: () => heartbeats,
    onEvent: (l) => listeners.push(l),
    stop: () => abort.abort(),
  };
}
