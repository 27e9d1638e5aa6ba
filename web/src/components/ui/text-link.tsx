import type { ComponentProps } from 'react';
import { Link } from 'react-router';
import { cn } from '@/lib/utils';

/** A link inside running text: the primary colour, underlined. */
export function TextLink({ className, ...props }: ComponentProps<typeof Link>) {
  return <Link className={cn('text-primary underline', className)} {...props} />;
}
