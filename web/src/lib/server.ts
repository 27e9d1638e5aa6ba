import type { PublicAuthConfig } from '@ai-editor/core';
import { useQuery } from '@tanstack/react-query';

/** `GET /api/config`: the settings in force on this server. */
export interface ServerConfig {
  limits: { maxUploadBytes?: number; retentionHours?: number; dailyUsesPerOperation?: number } & Record<
    string,
    unknown
  >;
  socialLinks: { code?: string; microblog?: string; professional?: string };
  ads: { client?: string; slot?: string };
  downloadsEnabled: boolean;
  auth: PublicAuthConfig;
}

export interface EngineHealth {
  operation: string;
  /** The operation's display name. */
  name?: string;
  engine: 'local' | 'replicate' | null;
  available: boolean;
  loaded?: boolean;
  reason?: string;
}

/** `GET /api/health`: the live state of every part of the server. */
export interface Health {
  status: string;
  database: { ok: boolean };
  storage: { ok: boolean };
  queue: { ok: boolean; waiting: number; active: number };
  engines: EngineHealth[];
}

export function useServerConfig() {
  return useQuery<ServerConfig>({ queryKey: ['/api/config'] });
}
