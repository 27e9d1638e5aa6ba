import type { ApiKey, CreatedKey } from '@ai-editor/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, KeyRound, Loader2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/input';
import { TextLink } from '@/components/ui/text-link';
import { toast } from '@/components/ui/use-toast';
import { useMe } from '@/features/auth/api';
import { useAuth } from '@/features/auth/useAuth';
import { ApiError, api, dataOf } from '@/lib/api';
import { queries } from '@/lib/queries';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const failed = (err: unknown) =>
  toast({
    variant: 'destructive',
    title: 'Error',
    description: err instanceof ApiError && err.body ? err.body.message : 'Something went wrong. Please try again.',
  });

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied', description: `${what} copied to the clipboard.` });
  } catch {
    toast({ variant: 'destructive', title: 'Error', description: 'Could not copy: select the text and copy it.' });
  }
}

/**
 * API keys (under the account menu): create a named key (shown once, with its webhook secret and Copy buttons),
 * see the keys with when each was last used, and revoke one after confirming.
 */
export default function ApiKeys() {
  const { data: me } = useMe();
  const { signIn, busy } = useAuth();
  const uid = me?.user?.uid;
  const queryClient = useQueryClient();
  const keys = useQuery({ ...queries.apiKeys(uid ?? ''), enabled: Boolean(uid) });
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [confirm, setConfirm] = useState<number | null>(null);
  const [revoking, setRevoking] = useState<number | null>(null);

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setCreating(true);
    try {
      setCreated(await dataOf(api.POST('/api/keys', { body: { name: name.trim() } })));
      setName('');
      await queryClient.invalidateQueries({ queryKey: ['/api/keys'] });
    } catch (err) {
      failed(err);
    } finally {
      setCreating(false);
    }
  };

  const revoke = async (key: ApiKey) => {
    setRevoking(key.id);
    try {
      await dataOf(api.DELETE('/api/keys/{id}', { params: { path: { id: String(key.id) } } }));
      setConfirm(null);
      if (created?.id === key.id) setCreated(null);
      await queryClient.invalidateQueries({ queryKey: ['/api/keys'] });
      toast({ title: 'Revoked', description: `${key.name} no longer works.` });
    } catch (err) {
      failed(err);
    } finally {
      setRevoking(null);
    }
  };

  const lead = (
    <>
      Programs send a key as <code>Authorization: Bearer aie_…</code> and act as you, with your daily uses. See the{' '}
      <TextLink to="/api-docs">API documentation</TextLink>.
    </>
  );
  if (me && !uid) {
    return (
      <Page title="API keys" lead={lead}>
        <p className="mb-4">Sign in to create API keys.</p>
        <Button onClick={signIn} disabled={busy}>
          Sign In
        </Button>
      </Page>
    );
  }

  return (
    <Page title="API keys" lead={lead}>
      <form onSubmit={create} className="mb-8 flex flex-wrap items-end gap-3" aria-label="Create an API key">
        <div className="min-w-[16rem] flex-1 space-y-2">
          <Label htmlFor="key-name">Name</Label>
          <Input
            id="key-name"
            value={name}
            maxLength={100}
            required
            placeholder="e.g. My batch script"
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <Button type="submit" disabled={creating || !name.trim() || !uid}>
          {creating ? <Loader2 className="animate-spin" aria-hidden /> : <KeyRound aria-hidden />} Create key
        </Button>
      </form>

      {created && (
        <section
          className="mb-8 space-y-4 rounded-lg border border-primary bg-card p-4"
          aria-labelledby="new-key"
          data-testid="new-key"
        >
          <h2 id="new-key" className="text-lg font-semibold">
            Your new key: {created.name}
          </h2>
          <p className="text-sm text-muted-foreground">
            Copy it now: it is shown this once (the server keeps only a hash of it).
          </p>
          <Secret label="API key" value={created.key} testId="new-key-value" />
          <Secret label="Webhook signing secret" value={created.webhookSecret} testId="new-key-secret" />
          <Button variant="outline" onClick={() => setCreated(null)}>
            Done
          </Button>
        </section>
      )}

      <h2 className="mb-3 text-lg font-semibold">Your keys</h2>
      {keys.isPending ? (
        <p className="flex items-center gap-2 text-muted-foreground" role="status">
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Loading your keys...
        </p>
      ) : keys.isError ? (
        <p role="alert" className="text-destructive">
          Could not load your keys. Please try again.
        </p>
      ) : keys.data.length === 0 ? (
        <p className="text-muted-foreground" data-testid="no-keys">
          No keys yet.
        </p>
      ) : (
        <ul className="divide-y rounded-lg border" data-testid="key-list">
          {keys.data.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center gap-3 p-4" data-testid="key-item">
              <div className="min-w-0 flex-1 text-sm">
                <p className="font-medium">{key.name}</p>
                <p className="text-muted-foreground">
                  <code>{key.prefix}…</code> · created {when.format(new Date(key.createdAt))} ·{' '}
                  {key.lastUsedAt ? `last used ${when.format(new Date(key.lastUsedAt))}` : 'never used'}
                </p>
              </div>
              {confirm === key.id ? (
                <div className="flex flex-wrap items-center gap-2">
                  <span className="text-sm font-medium" id={`revoke-${key.id}`}>
                    Revoke {key.name}? Programs using it stop working at once.
                  </span>
                  <Button
                    variant="destructive"
                    size="sm"
                    onClick={() => revoke(key)}
                    disabled={revoking === key.id}
                    aria-describedby={`revoke-${key.id}`}
                  >
                    {revoking === key.id ? <Loader2 className="animate-spin" aria-hidden /> : <Trash2 aria-hidden />}{' '}
                    Yes, revoke
                  </Button>
                  <Button variant="outline" size="sm" onClick={() => setConfirm(null)}>
                    Keep it
                  </Button>
                </div>
              ) : (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => setConfirm(key.id)}
                  aria-label={`Revoke ${key.name}`}
                >
                  <Trash2 aria-hidden /> Revoke
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

function Secret({ label, value, testId }: { label: string; value: string; testId: string }) {
  const id = `${testId}-field`;
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input id={id} readOnly value={value} className="font-mono text-sm" data-testid={testId} />
        <Button type="button" variant="outline" onClick={() => copy(value, label)} aria-label={`Copy ${label}`}>
          <Copy aria-hidden /> Copy
        </Button>
      </div>
    </div>
  );
}
