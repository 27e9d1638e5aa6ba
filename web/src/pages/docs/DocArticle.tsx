import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import NotFound from '@/components/layout/NotFound';
import { Page, Prose } from '@/components/layout/Page';
import { ARTICLES } from './articles';

export default function DocArticle() {
  const { slug } = useParams();
  const article = ARTICLES.find((a) => a.slug === slug);
  if (!article) return <NotFound />;
  return (
    <Page title={article.title} lead={article.summary}>
      <Prose>{article.body()}</Prose>
      <Link to="/docs" className="mt-10 inline-flex items-center gap-1 text-primary hover:underline">
        <ArrowLeft className="h-4 w-4" aria-hidden /> All documentation
      </Link>
    </Page>
  );
}
