import type { ErrorCode } from '@ai-editor/core';
import { toast } from '@/components/ui/use-toast';
import { ToolError } from './jobs';

/** A catalogue error as a toast: its title and message. */
export function errorToast(code: ErrorCode, vars?: Record<string, string | number>): void {
  failureToast(ToolError.of(code, vars));
}

/** A failure as a toast: a ToolError's title and message, anything else PROCESS_FAILED's. */
export function failureToast(err: unknown): void {
  const e = ToolError.from(err);
  toast({ variant: 'destructive', title: e.title, description: e.message });
}
