import type * as React from 'react';
import { useEffect } from 'react';
import { cn } from '@/lib/utils';

/** Sets the document title for the current page. */
export function useTitle(title: string) {
  useEffect(() => {
    document.title = title === 'AI Editor' ? title : `${title} | AI Editor`;
  }, [title]);
}

/** A standard page: one h1, an optional lead paragraph, the content in a readable column. */
export function Page({
  title,
  lead,
  children,
  wide = false,
  className,
}: {
  title: string;
  lead?: React.ReactNode;
  children?: React.ReactNode;
  wide?: boolean;
  className?: string;
}) {
  useTitle(title);
  return (
    <div className={cn('mx-auto px-4 py-12', wide ? 'max-w-6xl' : 'max-w-3xl', className)}>
      <header className="mb-8 space-y-3">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        {lead && <p className="text-lg text-muted-foreground">{lead}</p>}
      </header>
      {children}
    </div>
  );
}

/** Long-form text (legal pages, docs) with readable spacing, without a typography plugin. */
export function Prose({ children, className }: { children: React.ReactNode; className?: string }) {
  return (
    <div
      className={cn(
        'space-y-4 leading-7 [&_a]:text-primary [&_a]:underline [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:py-0.5 [&_code]:text-sm [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-semibold [&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-semibold [&_li]:ml-6 [&_ol]:list-decimal [&_ol]:space-y-1 [&_ul]:list-disc [&_ul]:space-y-1',
        className,
      )}
    >
      {children}
    </div>
  );
}
