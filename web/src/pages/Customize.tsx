import { RotateCcw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Label } from '@/components/ui/input';
import { Slider } from '@/components/ui/slider';
import { toast } from '@/components/ui/use-toast';
import {
  applyTheme,
  clearStoredTheme,
  fetchDefaultTheme,
  loadStoredTheme,
  normalizeTheme,
  saveTheme,
  type ThemeConfig,
  VARIANTS,
} from '@/features/theme/theme';
import { cn } from '@/lib/utils';

const PRESETS = ['#4f46e5', '#2563eb', '#0d9488', '#16a34a', '#ea580c', '#e11d48', '#9333ea', '#0f172a'];

function Choice<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly T[];
  value: T;
  onChange: (v: T) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{label}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((o) => (
          <Button
            key={o}
            type="button"
            size="sm"
            variant={o === value ? 'default' : 'outline'}
            aria-pressed={o === value}
            onClick={() => onChange(o)}
            className="capitalize"
          >
            {o}
          </Button>
        ))}
      </div>
    </fieldset>
  );
}

/** The theme editor: every change applies at once and is saved in this browser. */
export default function Customize() {
  const [theme, setTheme] = useState<ThemeConfig | null>(() => loadStoredTheme());
  useEffect(() => {
    if (!theme) void fetchDefaultTheme().then((t) => setTheme((cur) => cur ?? t));
  }, [theme]);

  const update = (patch: Partial<ThemeConfig>) => {
    if (!theme) return;
    const next = normalizeTheme({ ...theme, ...patch });
    setTheme(next);
    applyTheme(next);
    saveTheme(next);
  };

  const reset = async () => {
    clearStoredTheme();
    const def = await fetchDefaultTheme();
    setTheme(def);
    applyTheme(def);
    toast({ title: 'Theme reset', description: 'The default theme is back.' });
  };

  return (
    <Page title="Customize" lead="Choose the colours and shape of AI Editor. Your theme is saved in this browser." wide>
      {theme && (
        <div className="grid gap-8 md:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle as="h2">Theme</CardTitle>
            </CardHeader>
            <CardContent className="space-y-6">
              <fieldset className="space-y-2">
                <legend className="text-sm font-medium">Primary colour</legend>
                <div className="flex flex-wrap items-center gap-2">
                  {PRESETS.map((c) => (
                    <button
                      key={c}
                      type="button"
                      aria-label={`Primary colour ${c}`}
                      aria-pressed={theme.primary === c}
                      onClick={() => update({ primary: c })}
                      className={cn(
                        'h-8 w-8 rounded-full border-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
                        theme.primary === c ? 'border-foreground' : 'border-transparent',
                      )}
                      style={{ backgroundColor: c }}
                    />
                  ))}
                  <Label htmlFor="primary-colour" className="sr-only">
                    Custom primary colour
                  </Label>
                  <Input
                    id="primary-colour"
                    type="color"
                    value={theme.primary}
                    onChange={(e) => update({ primary: e.target.value })}
                    className="h-8 w-14 cursor-pointer p-1"
                  />
                </div>
              </fieldset>
              <Choice
                label="Variant"
                options={VARIANTS}
                value={theme.variant}
                onChange={(variant) => update({ variant })}
              />
              <Choice
                label="Appearance"
                options={['light', 'dark'] as const}
                value={theme.appearance}
                onChange={(appearance) => update({ appearance })}
              />
              <div className="space-y-2">
                <p className="text-sm font-medium" id="radius-label">
                  Radius: {theme.radius} rem
                </p>
                <Slider
                  min={0}
                  max={1.5}
                  step={0.125}
                  value={[theme.radius]}
                  onValueChange={([r]) => update({ radius: r ?? theme.radius })}
                  thumbLabel="Radius in rem"
                  aria-labelledby="radius-label"
                />
              </div>
              <Button variant="outline" onClick={() => void reset()}>
                <RotateCcw aria-hidden /> Reset to default
              </Button>
            </CardContent>
          </Card>
          <Card data-testid="theme-preview">
            <CardHeader>
              <CardTitle as="h2">Preview</CardTitle>
              <CardDescription>How buttons, cards and text look with your theme.</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              <div className="flex flex-wrap gap-2">
                <Button>Default</Button>
                <Button variant="secondary">Secondary</Button>
                <Button variant="outline">Outline</Button>
                <Button variant="ghost">Ghost</Button>
                <Button variant="destructive">Destructive</Button>
                <Button variant="link">Link</Button>
              </div>
              <div className="rounded-lg border bg-muted p-4">
                <p className="font-medium">A muted panel</p>
                <p className="text-sm text-muted-foreground">Secondary text on a muted background.</p>
              </div>
              <Input placeholder="An input field" aria-label="Preview input" />
            </CardContent>
          </Card>
        </div>
      )}
    </Page>
  );
}
