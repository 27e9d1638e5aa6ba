import { FlaskConical, Loader2, LogIn } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Button } from '@/components/ui/button';
import { LOCAL_SIGN_IN_NOTICE } from './localSignIn';
import { useAuth, useLocalSignIn } from './useAuth';

const SignedInMenu = lazy(() => import('./SignedInMenu'));

/** A small badge that says sign-in is local (emulator mode only). */
function LocalBadge() {
  return (
    <span
      className="hidden items-center gap-1 rounded-full border border-dashed px-2 py-0.5 text-xs text-muted-foreground sm:inline-flex"
      title={LOCAL_SIGN_IN_NOTICE}
      data-testid="local-sign-in"
    >
      <FlaskConical className="h-3 w-3" aria-hidden /> Local sign-in
    </span>
  );
}

/**
 * The header's account control (docs/product.md#rules): 'Sign In' for guests; for signed-in users the avatar and name, opening a
 * menu with the 'Account' header, the type label and 'Sign Out'. Shown at every width (it sits outside the mobile
 * sheet, so phones get the same menu). A suspended account shows so beside its avatar, and its menu says why and
 * offers only Sign Out. The menu is not modal (the page is not hidden from assistive technology while it is open:
 * its focusable controls would be hidden yet reachable), and what it tells rather than does (who is signed in, the
 * uses left) is its description, read when it opens: a menu's own items are menu items only.
 */
export function AccountMenu() {
  const { me, user, busy, signIn } = useAuth();
  const local = useLocalSignIn();
  // Same box before the visitor is known, so the header does not jump (and prerendered markup matches).
  if (!me) return <div className="h-9 w-24" aria-hidden />;
  if (!user) {
    return (
      <div className="flex items-center gap-2">
        {local && <LocalBadge />}
        <Button size="sm" onClick={signIn} disabled={busy} data-testid="sign-in">
          {busy ? <Loader2 className="animate-spin" aria-hidden /> : <LogIn aria-hidden />}
          Sign In
        </Button>
      </div>
    );
  }
  // Same box while the menu's code loads, as before the visitor is known.
  return (
    <Suspense fallback={<div className="h-9 w-24" aria-hidden />}>
      <SignedInMenu />
    </Suspense>
  );
}
