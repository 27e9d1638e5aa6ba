import { AD_MIN_HEIGHT_PX } from '@ai-editor/core';
import { useEffect, useRef } from 'react';
import { useServerConfig } from '@/lib/server';

declare global {
  interface Window {
    adsbygoogle?: unknown[];
  }
}

const AD_SCRIPT = 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js';

/** Loads the ad script once, only on deployments that configure an ad client. */
function loadAdScript(client: string): void {
  if (document.querySelector(`script[src^="${AD_SCRIPT}"]`)) return;
  const s = document.createElement('script');
  s.async = true;
  s.src = `${AD_SCRIPT}?client=${encodeURIComponent(client)}`;
  s.crossOrigin = 'anonymous';
  document.head.append(s);
}

/**
 * The ad block (docs/product.md#pages): an ad unit when the server configures both an ad client and a slot (AD_CLIENT, AD_SLOT);
 * otherwise, as in the original, the fallback text. At least 250 px high either way, so the page does not jump.
 */
export function AdBlock() {
  const { data } = useServerConfig();
  const client = data?.ads?.client;
  const slot = data?.ads?.slot;
  const pushed = useRef(false);
  useEffect(() => {
    if (!client || !slot || pushed.current) return;
    pushed.current = true;
    loadAdScript(client);
    window.adsbygoogle = window.adsbygoogle ?? [];
    window.adsbygoogle.push({});
  }, [client, slot]);

  return (
    <aside
      aria-label="Advertisement"
      data-testid="ad-block"
      style={{ minHeight: AD_MIN_HEIGHT_PX }}
      className="rounded-lg border border-dashed"
    >
      {client && slot ? (
        <ins
          className="adsbygoogle block"
          style={{ display: 'block', minHeight: AD_MIN_HEIGHT_PX }}
          data-ad-client={client}
          data-ad-slot={slot}
          data-ad-format="auto"
          data-full-width-responsive="true"
        />
      ) : (
        <div
          className="flex h-full flex-col items-center justify-center gap-1 p-6 text-center text-sm text-muted-foreground"
          style={{ minHeight: AD_MIN_HEIGHT_PX }}
        >
          <p className="font-medium">Advertisement</p>
          <p>Ads help keep AI Editor free during the beta.</p>
        </div>
      )}
    </aside>
  );
}
