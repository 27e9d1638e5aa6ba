import { Sparkles } from 'lucide-react';
import { Link } from 'react-router';

/** Icon and "AI Editor" label with an entrance animation, linking home (docs/product.md#who-it-is-for). */
export function Logo() {
  return (
    <Link to="/" className="flex items-center gap-2 font-bold text-lg animate-logo-in" aria-label="AI Editor home">
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <Sparkles className="h-5 w-5" aria-hidden />
      </span>
      <span>AI Editor</span>
    </Link>
  );
}
