import { errorMessage, errorTitle, type OperationId, usesLeftText } from '@ai-editor/core';
import { Clock, Lock, LogIn } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { useAccess } from './useAccess';
import { useAuth } from './useAuth';

/** 'today at 01:00' / 'tomorrow at 01:00' / a date, in the visitor's own time zone. */
export function resetTimeText(resetsAt: Date, now: Date = new Date()): string {
  const time = resetsAt.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  const dayDiff = Math.round(
    (new Date(resetsAt).setHours(0, 0, 0, 0) - new Date(now).setHours(0, 0, 0, 0)) / 86_400_000,
  );
  if (dayDiff === 0) return `today at ${time}`;
  if (dayDiff === 1) return `tomorrow at ${time}`;
  return resetsAt.toLocaleString(undefined, { weekday: 'long', hour: 'numeric', minute: '2-digit' });
}

/**
 * What this visitor may do with the tool, above its controls: guests on a restricted tool see 'Feature Restricted'
 * with a way to sign in; signed-in users see the uses left today ('1 of 2 uses left today') and, in their local
 * time, when the count resets.
 */
export function UsageNotice({ operation, className }: { operation: OperationId; className?: string }) {
  const access = useAccess(operation);
  const { signIn, busy, me } = useAuth();
  if (!me) return null;
  const box = cn('flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border px-4 py-3 text-sm', className);

  if (!access.signedIn && access.reason !== 'DAILY_LIMIT_REACHED') {
    if (access.canUse) {
      const { usage } = access;
      return (
        <p className={cn(box, 'text-muted-foreground')} data-testid="usage-notice">
          <Lock className="h-4 w-4" aria-hidden />
          {usage?.limit != null && usage.left !== null && (
            <strong className="text-foreground" data-testid="uses-left">
              {usesLeftText(usage.left, usage.limit)}
            </strong>
          )}
          <span>Guests can use this tool. Sign in with Google for full-size results and downloads.</span>
        </p>
      );
    }
    return (
      <div className={cn(box, 'border-destructive/50')} role="note" data-testid="usage-notice">
        <Lock className="h-4 w-4 text-destructive" aria-hidden />
        <p>
          <strong>{errorTitle('FEATURE_RESTRICTED')}</strong> – {errorMessage('FEATURE_RESTRICTED')}
        </p>
        <Button size="sm" onClick={signIn} disabled={busy}>
          <LogIn aria-hidden /> Sign In
        </Button>
      </div>
    );
  }

  const { usage, resetsAt } = access;
  if (!usage || usage.limit === null || usage.left === null) return null;
  return (
    <p className={cn(box, usage.left === 0 && 'border-destructive/50')} data-testid="usage-notice">
      <Clock className="h-4 w-4" aria-hidden />
      <strong data-testid="uses-left">{usesLeftText(usage.left, usage.limit)}</strong>
      {resetsAt && (
        <span className="text-muted-foreground" data-testid="resets-at">
          Resets {resetTimeText(resetsAt)} (your time)
        </span>
      )}
    </p>
  );
}

/**
 * Why the submit button beside it is disabled: no uses of this tool left today, and when they come back (the next
 * midnight UTC, in the visitor's own time). Nothing when uses are left.
 */
export function LimitReason({ operation, id }: { operation: OperationId; id?: string }) {
  const access = useAccess(operation);
  if (access.reason !== 'DAILY_LIMIT_REACHED') return null;
  return (
    <p id={id} className="text-sm text-destructive" role="note" data-testid="limit-reason">
      <strong>{errorTitle('DAILY_LIMIT_REACHED')}</strong> – You've used all of today's uses of this tool.
      {access.resetsAt && ` They come back ${resetTimeText(access.resetsAt)} (your time).`}
    </p>
  );
}
