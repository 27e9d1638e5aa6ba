import { AppError, type ErrorCode, errorMessage } from '@ai-editor/core';
import { EngineFailure, type FailureReason } from '../adapters/engine-pool.js';
import { ProviderFailure } from '../engines/errors.js';

/** What a visitor is told when an engine gives no result: the catalogue's code (where there is one) and message. */
export interface VisitorError {
  code?: ErrorCode;
  message: string;
}

/** The part of a logger this needs. */
export interface FaultLog {
  error(obj: object, msg: string): void;
}

/** An engine host ended mid-job, by the pool or by a crash. */
const HOST_ENDED: Record<Exclude<FailureReason, 'engine'>, ErrorCode> = {
  timeout: 'PROCESSING_TIMED_OUT',
  cancelled: 'CANCELLED',
  crashed: 'WORKER_CRASHED',
  memory: 'ENGINE_OUT_OF_MEMORY',
};

const known = (code: ErrorCode): VisitorError => ({ code, message: errorMessage(code) });

/**
 * The one translation of an engine's failure into what the visitor sees, for jobs, object selection and photo
 * analysis alike: a refusal keeps its catalogue code and message; an ended host says why (time limit, memory,
 * crash); a provider's failure shows its text where the provider client wrote it for visitors; anything else is a
 * fault, logged here once with its stack (`context` says whose) and shown as ENGINE_FAILED. Faults inside an engine
 * host are logged by the pool and arrive here as ENGINE_FAILED already.
 */
export function visitorError(err: unknown, log: FaultLog, context: Record<string, unknown>): VisitorError {
  if (err instanceof EngineFailure) {
    return err.reason === 'engine' ? { code: err.code, message: err.message } : known(HOST_ENDED[err.reason]);
  }
  if (err instanceof AppError) return { code: err.code, message: err.message };
  if (err instanceof ProviderFailure && err.visible) return { message: err.message };
  log.error({ ...context, err }, 'engine failed');
  return known('ENGINE_FAILED');
}

/** visitorError as the AppError a route answers with (ENGINE_FAILED's status where the failure has no code). */
export function engineAppError(err: unknown, log: FaultLog, context: Record<string, unknown>): AppError {
  const shown = visitorError(err, log, context);
  return AppError.carrying(shown.code ?? 'ENGINE_FAILED', shown.message);
}
