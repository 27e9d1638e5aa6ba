import { Briefcase, MapPin } from 'lucide-react';
import { Link } from 'react-router';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';

const POSITIONS = [
  {
    title: 'Machine Learning Engineer',
    place: 'Remote',
    type: 'Full-time',
    text: 'Bring new image models to production on CPUs and GPUs: conversion, quantisation, tiling and quality evaluation.',
  },
  {
    title: 'Frontend Engineer (React)',
    place: 'Remote',
    type: 'Full-time',
    text: 'Build fast, accessible editing tools in the browser: masks, previews, comparisons and everything around them.',
  },
  {
    title: 'Developer Advocate',
    place: 'Remote',
    type: 'Part-time',
    text: 'Write tutorials and documentation, help self-hosters, and bring what the community needs back to the team.',
  },
];

const BENEFITS = [
  'Work from anywhere, with flexible hours',
  'A yearly budget for learning and conferences',
  'Modern hardware of your choice',
  'Paid time off and public holidays wherever you live',
  'Work in the open: your code is open source',
];

export default function Careers() {
  return (
    <Page title="Careers" lead="Help us make advanced image editing simple for everyone." wide>
      <h2 className="mb-4 text-2xl font-semibold">Open positions</h2>
      <ul className="grid gap-6 md:grid-cols-3">
        {POSITIONS.map((p) => (
          <li key={p.title}>
            <Card className="flex h-full flex-col">
              <CardHeader>
                <CardTitle as="h3">{p.title}</CardTitle>
                <CardDescription className="flex flex-wrap gap-3">
                  <span className="inline-flex items-center gap-1">
                    <MapPin className="h-4 w-4" aria-hidden /> {p.place}
                  </span>
                  <span className="inline-flex items-center gap-1">
                    <Briefcase className="h-4 w-4" aria-hidden /> {p.type}
                  </span>
                </CardDescription>
              </CardHeader>
              <CardContent>
                <p>{p.text}</p>
              </CardContent>
              <CardFooter className="mt-auto">
                <Button asChild variant="outline">
                  <Link to="/contact">Apply: {p.title}</Link>
                </Button>
              </CardFooter>
            </Card>
          </li>
        ))}
      </ul>
      <h2 className="mb-4 mt-12 text-2xl font-semibold">Benefits</h2>
      <ul className="list-disc space-y-2 pl-6">
        {BENEFITS.map((b) => (
          <li key={b}>{b}</li>
        ))}
      </ul>
    </Page>
  );
}
