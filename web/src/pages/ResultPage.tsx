import { ArrowLeft } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/**
 * Frame of the result page (/result?id=…). The tool-pages issue fills it: polling GET /api/images/{id} every
 * second, preview, status and download (SPEC §4, §7, §8).
 */
export default function ResultPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  return (
    <Page title="Your Result">
      <Card data-testid="result-frame">
        <CardHeader>
          <CardTitle as="h2">{id ? `Image ${id}` : 'No image selected'}</CardTitle>
          <CardDescription>
            {id ? 'The status and preview of this image appear here.' : 'Open this page from a tool to see a result.'}
          </CardDescription>
        </CardHeader>
      </Card>
      <Button asChild variant="outline" className="mt-6">
        <Link to="/">
          <ArrowLeft aria-hidden /> Back to Home
        </Link>
      </Button>
    </Page>
  );
}
