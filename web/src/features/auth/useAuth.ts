import { authErrorMessage, errorTitle, type Me, USER_TYPE_LABELS } from '@ai-editor/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { toast } from '@/components/ui/use-toast';
import { ApiError, api, dataOf } from '@/lib/api';
import { queries } from '@/lib/queries';
import { useServerConfig } from '@/lib/server';
import { useMe } from './api';

type FirebaseModule = typeof import('./firebase');
let sdk: Promise<FirebaseModule> | undefined;
/** The SDK chunk, fetched on the first sign-in only. */
const loadSdk = () => {
  sdk ??= import('./firebase');
  return sdk;
};

/** The visitor closed the popup (or opened a second one): their choice, not an error to report. */
const CHOSEN_BY_VISITOR = new Set(['auth/popup-closed-by-user', 'auth/user-cancelled']);

function authErrorToast(err: unknown) {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && CHOSEN_BY_VISITOR.has(code)) return;
  if (typeof code === 'string' && code.startsWith('auth/')) {
    toast({ variant: 'destructive', title: 'Authentication Error', description: authErrorMessage(code) });
    return;
  }
  // The server refused the token (401 { code, message }) or could not be reached.
  const body = err instanceof ApiError ? err.body : undefined;
  toast({
    variant: 'destructive',
    title: body ? errorTitle(body.code) : 'Authentication Error',
    description: body?.message ?? authErrorMessage('network-request-failed'),
  });
}

/**
 * The auth state and its two actions. State is `GET /api/me` in the query cache (one place, from the server, never
 * a client-side counter); signing in sends the popup's ID token to `POST /api/session` once, signing out calls
 * `DELETE /api/session` and signs out of Firebase.
 */
export function useAuth() {
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  const [busy, setBusy] = useState(false);

  const signIn = useCallback(async () => {
    setBusy(true);
    try {
      const config = await queryClient.fetchQuery(queries.config());
      const { popupSignIn } = await loadSdk();
      const idToken = await popupSignIn(config.auth);
      const me: Me = await dataOf(api.POST('/api/session', { body: { idToken } }));
      queryClient.setQueryData(queries.me().queryKey, me);
      // The guest's jobs are now the account's: read again, their results come at full size.
      void queryClient.invalidateQueries({ queryKey: queries.job(0).queryKey.slice(0, 1) });
    } catch (err) {
      authErrorToast(err);
    } finally {
      setBusy(false);
    }
  }, [queryClient]);

  const signOut = useCallback(async () => {
    setBusy(true);
    try {
      const me: Me = await dataOf(api.DELETE('/api/session'));
      queryClient.setQueryData(queries.me().queryKey, me);
      if (sdk) await (await sdk).firebaseSignOut();
    } catch (err) {
      authErrorToast(err);
    } finally {
      setBusy(false);
    }
  }, [queryClient]);

  return {
    me,
    user: me?.user ?? null,
    userType: me?.type,
    typeLabel: me ? USER_TYPE_LABELS[me.type] : undefined,
    busy,
    signIn,
    signOut,
  };
}

/** Whether sign-in goes to the local Firebase Auth emulator (the UI says so). */
export function useLocalSignIn(): boolean {
  const { data: config } = useServerConfig();
  return config?.auth.mode === 'emulator';
}
