import { OPERATIONS, type OperationId } from '@ai-editor/core';
import { hasLocalEngine } from './local-engines.js';
import type { Logger } from './replicate/client.js';
import { createReplicateEngine } from './replicate/engine.js';
import { hasReplicateMapping } from './replicate/models.js';
import type { EngineChoice, EngineSettings } from './settings.js';
import type { Engine } from './types.js';

/**
 * Which engine runs each operation on this deployment. A local engine (local-engines.ts) runs in an engine host;
 * its `module` is what the host loads (loadLocalEngine): the operation id, or in tests a test engine's URL. A remote
 * engine runs in this process.
 */
export type EngineBinding =
  | { operation: OperationId; kind: 'local'; module: string }
  | { operation: OperationId; kind: 'remote'; name: string; engine: Engine }
  | { operation: OperationId; kind: 'off'; reason: string };

export type RemoteEngineFactory = (operation: OperationId, config: EngineSettings) => Engine;

const replicateFactory =
  (log?: Logger): RemoteEngineFactory =>
  (operation, config) =>
    createReplicateEngine(operation, config, { log });

export interface EngineRegistry {
  binding(operation: OperationId): EngineBinding;
  all(): EngineBinding[];
}

/**
 * Operations the provider runs by default once a token is set, although a local engine exists: inpainting on the
 * provider fills the painted area with what the prompt describes, which the local fill cannot do.
 */
const PROVIDER_FIRST = new Set<OperationId>(['image-inpainting']);

/**
 * The default rule: local where a local engine exists (but the provider for PROVIDER_FIRST with a token); Replicate
 * where none exists and a token is set; otherwise off. `ENGINE_<OPERATION>=local|replicate|off` overrides it per
 * operation.
 */
export function createEngineRegistry(
  config: EngineSettings,
  opts: { log?: Logger; localOverrides?: Partial<Record<OperationId, string>> } = {},
): EngineRegistry {
  const bindings = new Map<OperationId, EngineBinding>();
  const replicate = replicateFactory(opts.log);
  for (const op of OPERATIONS) {
    const local = opts.localOverrides?.[op.id] ?? (hasLocalEngine(op.id) ? op.id : undefined);
    const provider = hasReplicateMapping(op.id, config);
    const choice =
      config.engineChoice[op.id] ??
      ((!local || PROVIDER_FIRST.has(op.id)) && provider ? 'replicate' : local ? 'local' : 'off');
    bindings.set(op.id, bind(op.id, choice, local, config, replicate));
  }
  return {
    binding: (operation) => bindings.get(operation) as EngineBinding,
    all: () => [...bindings.values()],
  };
}

function bind(
  operation: OperationId,
  choice: EngineChoice,
  local: string | undefined,
  config: EngineSettings,
  replicate: RemoteEngineFactory,
): EngineBinding {
  const envName = `ENGINE_${operation.toUpperCase().replace(/-/g, '_')}`;
  if (choice === 'local') {
    if (local) return { operation, kind: 'local', module: local };
    return {
      operation,
      kind: 'off',
      reason: `No local engine exists for it; set REPLICATE_API_TOKEN to run it on Replicate.`,
    };
  }
  if (choice === 'replicate') {
    if (!config.replicateApiToken) {
      return { operation, kind: 'off', reason: 'Set REPLICATE_API_TOKEN to run it on Replicate.' };
    }
    if (!hasReplicateMapping(operation, config)) {
      const model = `REPLICATE_MODEL_${operation.toUpperCase().replace(/-/g, '_')}`;
      return { operation, kind: 'off', reason: `Set ${model} to the Replicate model that should run it.` };
    }
    return { operation, kind: 'remote', name: 'replicate', engine: replicate(operation, config) };
  }
  const how = local ? `Set ${envName}=local to enable it.` : 'Set REPLICATE_API_TOKEN to run it on Replicate.';
  return {
    operation,
    kind: 'off',
    reason: config.engineChoice[operation] === 'off' ? `It is switched off (${envName}=off).` : how,
  };
}
