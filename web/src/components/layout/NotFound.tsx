import { Home } from 'lucide-react';
import { Link } from 'react-router';
import { useTitle } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';

export default function NotFound() {
  useTitle('404 Page Not Found');
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <p className="text-6xl font-extrabold text-primary">404</p>
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Button asChild>
        <Link to="/">
          <Home aria-hidden /> Back to Home
        </Link>
      </Button>
    </div>
  );
}
