import { errorMessage, errorTitle, type Me, OPERATIONS } from '@ai-editor/core';
import { Ban, KeyRound, LogOut, ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/utils';
import { LOCAL_SIGN_IN_NOTICE } from './localSignIn';
import { resetTimeText } from './UsageNotice';
import { useAuth, useLocalSignIn } from './useAuth';

function initials(name: string | null, email: string | null): string {
  const words = (name || email || '?').split(/[\s@._-]+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');
}

/** The photo from the Google account, or the initials when there is none or it does not load. */
export function Avatar({ user, className }: { user: NonNullable<Me['user']>; className?: string }) {
  const [failed, setFailed] = useState(false);
  const box = cn(
    'inline-flex h-8 w-8 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary text-xs font-semibold text-primary-foreground',
    className,
  );
  if (user.photoURL && !failed) {
    return (
      <img
        src={user.photoURL}
        alt=""
        referrerPolicy="no-referrer"
        className={cn(box, 'object-cover')}
        onError={() => setFailed(true)}
      />
    );
  }
  // The initials are drawn by CSS, not written as text: they are decoration, and as text they would make the
  // trigger's visible label ("TU Test User") differ from its accessible name (WCAG 2.5.3).
  return (
    <span
      className={cn(box, 'before:content-[attr(data-initials)]')}
      data-initials={initials(user.name, user.email)}
      aria-hidden
    />
  );
}

/** The uses left today: each tool used today by name, the others together, and when the count resets. */
function UsesToday({ me }: { me: Me }) {
  const entries = OPERATIONS.flatMap((op) => {
    const u = me.usage[op.id];
    return u?.allowed && u.limit !== null && u.left !== null
      ? [{ op, left: u.left, limit: u.limit, used: u.used }]
      : [];
  });
  const used = entries.filter((e) => e.used > 0);
  const limit = entries[0]?.limit;
  return (
    <div className="px-2 py-2 text-sm" data-testid="uses-today">
      <div className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">Uses left today</div>
      <div className="mt-1 space-y-0.5">
        {used.map((e) => (
          <div key={e.op.id} className={cn('flex justify-between gap-2', e.left === 0 && 'text-destructive')}>
            <span className="truncate">{e.op.name}</span>
            <span className="shrink-0 tabular-nums">
              {e.left} of {e.limit}
            </span>
          </div>
        ))}
        {limit !== undefined && used.length < entries.length && (
          <div className="text-muted-foreground">
            {used.length ? 'Every other tool' : 'Every tool'}: {limit} of {limit}
          </div>
        )}
      </div>
      {me.resetsAt && (
        <div className="mt-1 text-xs text-muted-foreground">
          Resets {resetTimeText(new Date(me.resetsAt))} (your time)
        </div>
      )}
    </div>
  );
}

/** A suspended account's state, beside its avatar in the header and, with the reason, at the top of its menu. */
function SuspendedBadge() {
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full bg-destructive px-2 py-0.5 text-xs font-semibold text-destructive-foreground"
      data-testid="account-suspended"
    >
      <Ban className="h-3 w-3" aria-hidden /> {errorTitle('ACCOUNT_SUSPENDED')}
    </span>
  );
}

/**
 * A signed-in visitor's avatar and name, opening the account menu (AccountMenu.tsx describes it). Its own module,
 * loaded once someone is signed in: a guest's pages do without the menu's code.
 */
export default function SignedInMenu() {
  const { me, user, typeLabel, busy, signOut } = useAuth();
  const local = useLocalSignIn();
  const aboutId = useId();
  if (!me || !user) return null;
  const name = user.name || user.email || 'Account';
  const suspended = me.suspended;
  return (
    <DropdownMenu modal={false}>
      <div className="flex items-center gap-2">
        {suspended && <SuspendedBadge />}
        <DropdownMenuTrigger asChild>
          <Button
            variant="ghost"
            className="h-10 gap-2 px-2"
            aria-label={`${name}: account menu${suspended ? ` (${errorTitle('ACCOUNT_SUSPENDED')})` : ''}`}
            data-testid="account-menu"
          >
            <Avatar user={user} />
            <span className="hidden max-w-[10rem] truncate text-sm font-medium sm:inline" data-testid="account-name">
              {name}
            </span>
          </Button>
        </DropdownMenuTrigger>
      </div>
      <DropdownMenuContent align="end" className="w-64" aria-describedby={aboutId}>
        <DropdownMenuLabel>Account</DropdownMenuLabel>
        <div id={aboutId}>
          <div className="px-2 pb-2 text-sm">
            <div className="truncate font-medium">{name}</div>
            {user.email && <div className="truncate text-muted-foreground">{user.email}</div>}
            <div className="mt-1 text-xs font-semibold uppercase tracking-wide text-primary" data-testid="user-type">
              {typeLabel}
            </div>
            {suspended && (
              <div className="mt-2 text-sm text-destructive" data-testid="suspended-reason">
                {errorMessage('ACCOUNT_SUSPENDED')}
              </div>
            )}
            {local && <div className="mt-2 text-xs text-muted-foreground">{LOCAL_SIGN_IN_NOTICE}</div>}
          </div>
          {!suspended && (
            <>
              <DropdownMenuSeparator />
              <UsesToday me={me} />
            </>
          )}
        </div>
        <DropdownMenuSeparator />
        {!suspended && (
          <DropdownMenuItem asChild>
            <Link to="/api-keys" data-testid="api-keys-link">
              <KeyRound aria-hidden /> API keys
            </Link>
          </DropdownMenuItem>
        )}
        {me.admin && !suspended && (
          <DropdownMenuItem asChild data-testid="admin-link">
            <Link to="/admin">
              <ShieldCheck aria-hidden /> Admin
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuItem onSelect={() => void signOut()} disabled={busy} data-testid="sign-out">
          <LogOut aria-hidden /> Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
