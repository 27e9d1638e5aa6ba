import { TOAST } from '@ai-editor/core';
import * as React from 'react';
import type { ToastActionElement, ToastProps } from './toast';

/**
 * A tiny global toast store (shadcn/ui's use-toast): one toast is visible at a time (docs/product.md#constants), and a dismissed
 * toast is removed from memory after 1,000,000 ms (its close animation has long finished by then).
 */
export type ToasterToast = ToastProps & {
  id: string;
  title?: React.ReactNode;
  description?: React.ReactNode;
  action?: ToastActionElement;
};

interface State {
  toasts: ToasterToast[];
}

let count = 0;
const nextId = () => {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return String(count);
};

const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>();
const listeners = new Set<(state: State) => void>();
let memoryState: State = { toasts: [] };

function setState(next: State) {
  memoryState = next;
  for (const listener of listeners) listener(memoryState);
}

function scheduleRemoval(id: string) {
  if (removeTimeouts.has(id)) return;
  removeTimeouts.set(
    id,
    setTimeout(() => {
      removeTimeouts.delete(id);
      setState({ toasts: memoryState.toasts.filter((t) => t.id !== id) });
    }, TOAST.removeDelayMs),
  );
}

export function dismiss(id?: string) {
  for (const t of memoryState.toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  setState({
    toasts: memoryState.toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)),
  });
}

export type ToastInput = Omit<ToasterToast, 'id'>;

export function toast(props: ToastInput) {
  const id = nextId();
  const update = (next: ToastInput) =>
    setState({ toasts: memoryState.toasts.map((t) => (t.id === id ? { ...t, ...next } : t)) });
  setState({
    toasts: [
      {
        ...props,
        id,
        open: true,
        onOpenChange: (open: boolean) => {
          if (!open) dismiss(id);
        },
      },
      ...memoryState.toasts,
    ].slice(0, TOAST.limit),
  });
  return { id, dismiss: () => dismiss(id), update };
}

export function useToast() {
  const [state, setLocal] = React.useState<State>(memoryState);
  React.useEffect(() => {
    listeners.add(setLocal);
    return () => {
      listeners.delete(setLocal);
    };
  }, []);
  return { ...state, toast, dismiss };
}
