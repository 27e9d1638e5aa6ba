/**
 * The theme (docs/product.md#records): primary colour, variant, appearance and corner radius. Stored in
 * localStorage; without a stored theme the default comes from `GET /theme.json`. Applying a theme writes the CSS
 * variables that index.css maps to Tailwind colours.
 */
export type ThemeVariant = 'professional' | 'tint' | 'vibrant';
export type ThemeAppearance = 'light' | 'dark';

export interface ThemeConfig {
  primary: string;
  variant: ThemeVariant;
  appearance: ThemeAppearance;
  radius: number;
}

export const THEME_STORAGE_KEY = 'ai-editor-theme';
export const DEFAULT_THEME: ThemeConfig = {
  primary: '#4f46e5',
  variant: 'professional',
  appearance: 'light',
  radius: 0.5,
};
export const VARIANTS: readonly ThemeVariant[] = ['professional', 'tint', 'vibrant'];

const HEX = /^#[0-9a-f]{6}$/i;

/** Accepts a partial or foreign object (storage, theme.json) and fills the gaps from the default. */
export function normalizeTheme(raw: unknown): ThemeConfig {
  const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const radius = typeof o.radius === 'number' && o.radius >= 0 && o.radius <= 2 ? o.radius : DEFAULT_THEME.radius;
  return {
    primary: typeof o.primary === 'string' && HEX.test(o.primary) ? o.primary.toLowerCase() : DEFAULT_THEME.primary,
    variant: VARIANTS.includes(o.variant as ThemeVariant) ? (o.variant as ThemeVariant) : DEFAULT_THEME.variant,
    appearance: o.appearance === 'dark' ? 'dark' : 'light',
    radius,
  };
}

export function loadStoredTheme(): ThemeConfig | null {
  try {
    const raw = localStorage.getItem(THEME_STORAGE_KEY);
    return raw ? normalizeTheme(JSON.parse(raw)) : null;
  } catch {
    return null;
  }
}

export function saveTheme(theme: ThemeConfig): void {
  localStorage.setItem(THEME_STORAGE_KEY, JSON.stringify(theme));
}

export function clearStoredTheme(): void {
  localStorage.removeItem(THEME_STORAGE_KEY);
}

function hexToHsl(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  const r = ((n >> 16) & 255) / 255;
  const g = ((n >> 8) & 255) / 255;
  const b = (n & 255) / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return [0, 0, Math.round(l * 100)];
  const s = d / (1 - Math.abs(2 * l - 1));
  let h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  h = Math.round(h * 60);
  if (h < 0) h += 360;
  return [h, Math.round(s * 100), Math.round(l * 100)];
}

/** Relative luminance of an HSL colour, to pick readable text on it. */
function luminance(h: number, s: number, l: number): number {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (k: number) => {
    const t = (k + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(t - 3, 9 - t, 1));
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * f(0) + 0.7152 * f(8) + 0.0722 * f(4);
}

const hsl = (h: number, s: number, l: number) => `hsl(${h} ${s}% ${l}%)`;

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** Moves the lightness away from the background until the colour reads as text on it (WCAG AA, 4.5:1). */
function readableLightness(h: number, s: number, l: number, bg: [number, number, number], dark: boolean): number {
  const bgLum = luminance(...bg);
  let out = l;
  while (contrast(luminance(h, s, out), bgLum) < 4.6 && out > 0 && out < 100) out += dark ? 1 : -1;
  return out;
}

/** The CSS variables of a theme. Saturation of the surfaces grows from professional (neutral) to vibrant. */
export function themeVariables(theme: ThemeConfig): Record<string, string> {
  const [h, s, rawL] = hexToHsl(theme.primary);
  const dark = theme.appearance === 'dark';
  const tint = { professional: 0, tint: 30, vibrant: 65 }[theme.variant];
  const hue = theme.variant === 'professional' ? 220 : h;
  const surfaceS = theme.variant === 'professional' ? 20 : tint;
  const background: [number, number, number] = dark
    ? [hue, Math.min(surfaceS + 15, 60), 7]
    : theme.variant === 'professional'
      ? [0, 0, 100]
      : [hue, tint, 98];
  // Primary is also link text: keep it readable on the background (and on the muted panels, slightly darker).
  const mutedBg: [number, number, number] = dark
    ? [hue, Math.min(surfaceS + 10, 50), 17]
    : [hue, Math.max(surfaceS, 30), theme.variant === 'vibrant' ? 92 : 95];
  const l = readableLightness(h, s, readableLightness(h, s, rawL, background, dark), mutedBg, dark);
  // Text on primary buttons: white or near-black, whichever contrasts more.
  const primaryLum = luminance(h, s, l);
  const onPrimary =
    contrast(primaryLum, 1) >= contrast(primaryLum, luminance(h, 40, 10)) ? hsl(0, 0, 100) : hsl(h, 40, 10);
  const vars = dark
    ? {
        '--background': hsl(...background),
        '--foreground': hsl(hue, 20, 96),
        '--card': hsl(hue, Math.min(surfaceS + 15, 60), 10),
        '--muted': hsl(...mutedBg),
        '--muted-foreground': hsl(hue, 15, 72),
        '--accent': hsl(hue, Math.min(surfaceS + 10, 50), 20),
        '--border': hsl(hue, Math.min(surfaceS + 10, 40), 24),
        '--destructive': hsl(0, 70, 45),
      }
    : {
        '--background': hsl(...background),
        '--foreground': hsl(hue, 45, 11),
        '--card': theme.variant === 'professional' ? hsl(0, 0, 100) : hsl(hue, tint, 99),
        '--muted': hsl(...mutedBg),
        '--muted-foreground': hsl(hue, 18, 34),
        '--accent': hsl(hue, Math.max(surfaceS, 30), 92),
        '--border': hsl(hue, Math.max(surfaceS, 25), 86),
        '--destructive': hsl(0, 72, 42),
      };
  return {
    ...vars,
    '--primary': hsl(h, s, l),
    '--primary-foreground': onPrimary,
    '--destructive-foreground': hsl(0, 0, 100),
    '--radius': `${theme.radius}rem`,
  };
}

export function applyTheme(theme: ThemeConfig, root: HTMLElement = document.documentElement): void {
  for (const [name, value] of Object.entries(themeVariables(theme))) root.style.setProperty(name, value);
  root.classList.toggle('dark', theme.appearance === 'dark');
  root.style.colorScheme = theme.appearance;
}

/** The site's default theme: `/theme.json`, else the built-in one. */
export async function fetchDefaultTheme(): Promise<ThemeConfig> {
  try {
    const res = await fetch('/theme.json');
    if (!res.ok) return DEFAULT_THEME;
    return normalizeTheme(await res.json());
  } catch {
    return DEFAULT_THEME;
  }
}

/** At start: the stored theme at once (before the first paint), else the default from `/theme.json`. */
export function initTheme(): void {
  const stored = loadStoredTheme();
  if (stored) {
    applyTheme(stored);
    return;
  }
  void fetchDefaultTheme().then((theme) => {
    if (!loadStoredTheme()) applyTheme(theme);
  });
}
