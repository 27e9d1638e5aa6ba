import { CONTACT_LIMITS, type ContactErrors, type ContactInput, validateContact } from '@ai-editor/core';
import { useMutation } from '@tanstack/react-query';
import { Loader2, Send } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Input, Label, Textarea } from '@/components/ui/input';
import { TextLink } from '@/components/ui/text-link';
import { toast } from '@/components/ui/use-toast';
import { ApiError, api, dataOf } from '@/lib/api';

const EMPTY: ContactInput = { name: '', email: '', message: '' };

export default function Contact() {
  const [values, setValues] = useState<ContactInput>(EMPTY);
  const [errors, setErrors] = useState<ContactErrors>({});
  const send = useMutation({
    mutationFn: (input: ContactInput) => dataOf(api.POST('/api/contact', { body: input })),
    onSuccess: () => {
      setValues(EMPTY);
      toast({ title: 'Message sent', description: 'Thank you for your message. We will get back to you soon.' });
    },
    onError: (err) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description:
          (err instanceof ApiError && err.body?.message) || 'Your message could not be sent. Please try again.',
      });
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateContact(values);
    setErrors(found);
    if (Object.keys(found).length === 0) send.mutate(values);
  };

  const field = (name: keyof ContactInput) => ({
    id: `contact-${name}`,
    name,
    value: values[name],
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `contact-${name}-error` : undefined,
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
  });
  const error = (name: keyof ContactInput) =>
    errors[name] && (
      <p id={`contact-${name}-error`} className="text-sm font-medium text-destructive dark:text-red-400">
        {errors[name]}
      </p>
    );

  return (
    <Page title="Contact Us" lead="Questions, feedback or a problem to report? Send us a message.">
      <form onSubmit={onSubmit} noValidate className="space-y-5 rounded-lg border p-6">
        <div className="space-y-2">
          <Label htmlFor="contact-name">Name</Label>
          <Input {...field('name')} autoComplete="name" maxLength={CONTACT_LIMITS.name} />
          {error('name')}
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-email">Email</Label>
          <Input {...field('email')} type="email" autoComplete="email" maxLength={CONTACT_LIMITS.email} />
          {error('email')}
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-message">Message</Label>
          <Textarea {...field('message')} rows={6} maxLength={CONTACT_LIMITS.messageMax} />
          {error('message')}
        </div>
        <Button type="submit" disabled={send.isPending}>
          {send.isPending ? <Loader2 className="animate-spin" aria-hidden /> : <Send aria-hidden />}
          Send Message
        </Button>
      </form>
      <p className="mt-6 text-muted-foreground">
        Before writing, you may find your answer in the <TextLink to="/faq">FAQ</TextLink> or the{' '}
        <TextLink to="/docs/troubleshooting">troubleshooting guide</TextLink>.
      </p>
    </Page>
  );
}
