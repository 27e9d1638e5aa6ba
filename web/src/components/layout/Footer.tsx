import { AtSign, Briefcase, ChevronDown, Code2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useServerConfig } from '@/lib/server';
import { useIsMobile } from '@/lib/useMediaQuery';
import { cn } from '@/lib/utils';
import { Logo } from './Logo';

const GROUPS = [
  {
    title: 'Product',
    links: [
      { to: '/ai-apps', label: 'AI Apps' },
      { to: '/pricing', label: 'Pricing' },
      { to: '/faq', label: 'FAQ' },
      { to: '/customize', label: 'Customize' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/terms', label: 'Terms of Service' },
      { to: '/cookies', label: 'Cookie Policy' },
      { to: '/dmca', label: 'DMCA' },
    ],
  },
  {
    title: 'Support',
    links: [
      { to: '/docs', label: 'Documentation' },
      { to: '/contact', label: 'Contact' },
      { to: '/status', label: 'Status' },
      { to: '/api-docs', label: 'API Docs' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: '/about', label: 'About' },
      { to: '/blog', label: 'Blog' },
      { to: '/careers', label: 'Careers' },
      { to: '/press', label: 'Press' },
    ],
  },
];

/** On small screens each group is a collapsible section, closed by default; on wider screens all are shown. */
function FooterGroup({ title, links }: (typeof GROUPS)[number]) {
  const mobile = useIsMobile();
  const [open, setOpen] = useState(false);
  const id = `footer-${title.toLowerCase()}`;
  const shown = !mobile || open;
  return (
    <div className="border-b py-2 md:border-0 md:py-0">
      <h2 className="text-sm font-semibold">
        {mobile ? (
          <button
            type="button"
            className="flex w-full items-center justify-between py-2"
            aria-expanded={open}
            aria-controls={id}
            onClick={() => setOpen((o) => !o)}
          >
            {title}
            <ChevronDown className={cn('h-4 w-4 transition-transform', open && 'rotate-180')} aria-hidden />
          </button>
        ) : (
          title
        )}
      </h2>
      <ul id={id} hidden={!shown} className="mt-2 space-y-2 pb-2 md:mt-4">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="text-sm text-muted-foreground hover:text-foreground hover:underline">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

function SocialLinks() {
  const { data } = useServerConfig();
  const links = [
    { href: data?.socialLinks.code, label: 'Source code', Icon: Code2 },
    { href: data?.socialLinks.microblog, label: 'Microblog', Icon: AtSign },
    { href: data?.socialLinks.professional, label: 'Professional network', Icon: Briefcase },
  ].filter((l): l is typeof l & { href: string } => Boolean(l.href));
  if (links.length === 0) return null;
  return (
    <ul className="flex gap-2" aria-label="Social links">
      {links.map(({ href, label, Icon }) => (
        <li key={label}>
          <a
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={label}
            title={label}
            className="flex h-9 w-9 items-center justify-center rounded-md border text-muted-foreground hover:bg-accent hover:text-foreground"
          >
            <Icon className="h-4 w-4" aria-hidden />
          </a>
        </li>
      ))}
    </ul>
  );
}

export function Footer() {
  return (
    <footer className="mt-16 border-t bg-muted/40">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 md:grid-cols-[1.5fr_repeat(4,1fr)]">
        <div className="space-y-4">
          <Logo />
          <p className="max-w-xs text-sm text-muted-foreground">
            An editor for advanced AI image editing and enhancement tools.
          </p>
          <SocialLinks />
        </div>
        <div className="md:contents">
          {GROUPS.map((group) => (
            <FooterGroup key={group.title} {...group} />
          ))}
        </div>
      </div>
      <div className="border-t py-6 text-center text-sm text-muted-foreground">
        © {new Date().getFullYear()} AI Editor. All rights reserved.
      </div>
    </footer>
  );
}
