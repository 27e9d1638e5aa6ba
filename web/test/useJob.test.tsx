/**
 * The job stream hook: a running job's page follows it by push (Server-Sent Events), and polls only when the stream
 * is lost.
 */
import type { ImageJob } from '@ai-editor/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useJob } from '@/features/tool/useJob';

/** The browser's EventSource as the server drives it: `emit` sends one job, `fail` drops the stream. */
class ServerStream {
  static open: ServerStream[] = [];
  onmessage: ((event: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    ServerStream.open.push(this);
  }
  emit(job: ImageJob) {
    this.onmessage?.({ data: JSON.stringify(job) });
  }
  fail() {
    this.onerror?.();
  }
  close() {
    this.closed = true;
  }
}

const job = (patch: Partial<ImageJob>): ImageJob =>
  ({
    id: 7,
    operation: 'denoising',
    status: 'pending',
    metadata: { stage: 'queued' },
    processedUrls: [],
    downloadUrls: [],
    ...patch,
  }) as ImageJob;

/** What GET /api/images/7 answers, and how often it was asked. */
let served: ImageJob;
const fetched = vi.fn(async () => new Response(JSON.stringify(served), { status: 200 }));

let client: QueryClient;
const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={client}>{children}</QueryClientProvider>
);

beforeEach(() => {
  ServerStream.open = [];
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  served = job({});
  fetched.mockClear();
  vi.stubGlobal('EventSource', ServerStream);
  vi.stubGlobal('fetch', fetched);
});
afterEach(() => vi.unstubAllGlobals());

describe('useJob', () => {
  it('shows each change the server pushes, then closes the stream once the job has ended, without polling', async () => {
    const { result } = renderHook(() => useJob(7, 50), { wrapper });
    await waitFor(() => expect(result.current.data?.status).toBe('pending'));
    const stream = ServerStream.open[0] as ServerStream;
    expect(stream.url).toBe('/api/images/7/events');

    act(() => stream.emit(job({ metadata: { stage: 'processing', percent: 40 } })));
    await waitFor(() => expect(result.current.data?.metadata.percent).toBe(40));
    act(() => stream.emit(job({ status: 'completed', metadata: { stage: 'done', percent: 100 } })));
    await waitFor(() => expect(result.current.data?.status).toBe('completed'));
    expect(stream.closed).toBe(true);

    await new Promise((r) => setTimeout(r, 200));
    expect(fetched).toHaveBeenCalledTimes(1);
  });

  it('polls the job when its stream is lost, until it has ended', async () => {
    const { result } = renderHook(() => useJob(7, 50), { wrapper });
    await waitFor(() => expect(result.current.data?.status).toBe('pending'));
    act(() => (ServerStream.open[0] as ServerStream).fail());

    await waitFor(() => expect(fetched.mock.calls.length).toBeGreaterThanOrEqual(2));
    served = job({ status: 'failed', metadata: { stage: 'failed', error: 'Cancelled' } });
    await waitFor(() => expect(result.current.data?.status).toBe('failed'));
    const asked = fetched.mock.calls.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(fetched).toHaveBeenCalledTimes(asked);
  });
});
