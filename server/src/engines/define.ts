import { fileFields, getOperation, type OperationId, parseParams } from '@ai-editor/core';
import type { EngineContext, EngineInput, EngineOutput, Job, LocalEngine } from './types.js';

export interface EngineDefinition<Id extends OperationId> {
  /** Runs one job. Refusals meant for the visitor throw an `AppError`; any other error is a fault (logged). */
  run(job: Job<Id>, ctx: EngineContext): Promise<EngineOutput>;
  /** Loads the models ahead of the first job (given the engine itself, e.g. to run a small job); optional. */
  warm?(ctx: Pick<EngineContext, 'threads'>, engine: LocalEngine<Id>): Promise<void>;
  /** Frees the models after an idle time. */
  release?(): Promise<void> | void;
}

const FILE_INPUT = { file: 'image', mask: 'mask', file2: 'image2' } as const;

/**
 * Makes an operation's local engine (the default export of engines/local/<operation>.ts). The job's parameters
 * reach `run` parsed and defaulted by the catalogue (core's parseParams, the same check as at submit, run again
 * here so that the type holds for any stored job) and its required files are there: no engine parses, defaults
 * or checks them itself. A photo → photo engine is made with definePhotoEngine (define-photo.ts), which adds on top
 * of this the reading of the photo, the encoding of its one image and their progress.
 */
export function defineEngine<Id extends OperationId>(
  operation: Id,
  def: EngineDefinition<NoInfer<Id>>,
): LocalEngine<Id> {
  const op = getOperation(operation);
  const engine: LocalEngine<Id> = {
    operation,
    async run(input: EngineInput, ctx: EngineContext) {
      // The route checked the files at submit time: one missing here was handed over wrongly (a fault).
      for (const field of fileFields(op)) {
        if (field.required && !input[FILE_INPUT[field.name]]) throw new Error(`${operation}: no ${field.name} given`);
      }
      const job = { ...input, operation, params: parseParams(op, input.params) } as Job<NoInfer<Id>>;
      return def.run(job, ctx);
    },
    release: def.release?.bind(def),
  };
  const { warm } = def;
  if (warm) engine.warm = (ctx) => warm.call(def, ctx, engine);
  return engine;
}
