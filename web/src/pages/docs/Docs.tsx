import { BookOpen, Code2, FlaskConical, LifeBuoy, Mail } from 'lucide-react';
import { Link } from 'react-router';
import { Page } from '@/components/layout/Page';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { MAX_UPLOAD_TEXT, RETENTION_TEXT } from '@/lib/limits';
import { ARTICLES } from './articles';

const MORE = [
  { to: '/api-docs', title: 'API Reference', text: 'Every endpoint of the HTTP API.', Icon: Code2 },
  {
    to: '/taguchi-design',
    title: 'Tuning settings',
    text: 'Find the best settings in a few runs.',
    Icon: FlaskConical,
  },
  { to: '/contact', title: 'Contact', text: 'Ask us anything.', Icon: Mail },
  { to: '/status', title: 'Status', text: 'Live state of every service.', Icon: LifeBuoy },
];

export default function Docs() {
  return (
    <Page title="Documentation" lead="Guides for every tool, best practices and answers to common problems." wide>
      <section aria-labelledby="basics-heading" className="mb-10 rounded-lg border bg-muted/40 p-6">
        <h2 id="basics-heading" className="text-xl font-semibold">
          The basics
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-6">
          <li>Upload JPEG, PNG or WebP images of up to {MAX_UPLOAD_TEXT}, one at a time.</li>
          <li>
            Results are PNG images. Most tools finish in a few seconds; enlarging or restoring a large photo can take a
            few minutes, and the tool page shows the progress meanwhile.
          </li>
          <li>Your uploads and results are private to you and are deleted automatically after {RETENTION_TEXT}.</li>
          <li>Guests can use Face Enhancement; a free Google sign-in unlocks every tool and downloads.</li>
        </ul>
      </section>
      <h2 className="mb-4 text-2xl font-semibold">Guides</h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {ARTICLES.map((a) => (
          <li key={a.slug}>
            <Link to={`/docs/${a.slug}`} className="group block h-full">
              <Card className="h-full transition-shadow group-hover:shadow-md">
                <CardHeader>
                  <BookOpen className="h-6 w-6 text-primary" aria-hidden />
                  <CardTitle>{a.title}</CardTitle>
                  <CardDescription>{a.summary}</CardDescription>
                </CardHeader>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
      <h2 className="mb-4 mt-10 text-2xl font-semibold">More resources</h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {MORE.map(({ to, title, text, Icon }) => (
          <li key={to}>
            <Link to={to} className="group block h-full">
              <Card className="h-full transition-shadow group-hover:shadow-md">
                <CardHeader>
                  <Icon className="h-6 w-6 text-primary" aria-hidden />
                  <CardTitle>{title}</CardTitle>
                  <CardDescription>{text}</CardDescription>
                </CardHeader>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
    </Page>
  );
}
