import { formatById, type ParamDef, type Params, type ParamValue } from '@ai-editor/core';
import { useState } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { Input, Label, Textarea } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Slider } from '@/components/ui/slider';

/** The operation's parameters as form controls, straight from the catalogue (kinds, ranges, defaults, help). */
/** Whether the chosen output format takes a quality (core's format table says which do). */
const hasQuality = (format: ParamValue | undefined) => formatById(String(format ?? 'png'))?.encoder.quality === true;

export function ParamControls({
  defs,
  values,
  onChange,
  disabled,
}: {
  defs: readonly ParamDef[];
  values: Params;
  onChange(name: string, value: ParamValue): void;
  disabled: boolean;
}) {
  if (defs.length === 0) return null;
  const main = defs.filter((d) => d.group !== 'output');
  const output = defs.filter((d) => d.group === 'output');
  const fields = (list: readonly ParamDef[]) =>
    list.map((def) => (
      <div key={def.name} className={def.kind === 'text' ? 'space-y-2 sm:col-span-2' : 'space-y-2'}>
        <Control def={def} value={values[def.name] ?? def.default} onChange={onChange} disabled={disabled} />
        {def.help && (
          <p id={`${def.name}-help`} className="text-sm text-muted-foreground">
            {def.help}
          </p>
        )}
      </div>
    ));
  return (
    <div className="space-y-5" data-testid="tool-controls">
      {main.length > 0 && <div className="grid gap-5 sm:grid-cols-2">{fields(main)}</div>}
      {output.length > 0 && (
        // How the result is delivered: folded away, PNG unless changed.
        <details className="rounded-md border px-4 py-3" data-testid="output-options">
          <summary className="cursor-pointer text-sm font-medium">
            Output: {String(values.format ?? 'png').toUpperCase()}
          </summary>
          <div className="mt-4 grid gap-5 sm:grid-cols-2">
            {fields(output.filter((d) => d.name !== 'quality' || hasQuality(values.format)))}
          </div>
        </details>
      )}
    </div>
  );
}

const COLOR = /^#[0-9a-fA-F]{6}$/;

/** A select whose value may also be a colour (background removal's background): a 'Colour' choice, a picker, a swatch. */
function ColorSelect({
  def,
  value,
  onChange,
  disabled,
}: {
  def: ParamDef & { kind: 'select' };
  value: string;
  onChange(name: string, value: ParamValue): void;
  disabled: boolean;
}) {
  const id = `param-${def.name}`;
  const isColor = COLOR.test(value);
  const [lastColor, setLastColor] = useState(isColor ? value : '#ffffff');
  return (
    <>
      <Label htmlFor={id}>{def.label}</Label>
      <div className="flex items-center gap-2">
        <NativeSelect
          id={id}
          name={def.name}
          value={isColor ? 'color' : value}
          disabled={disabled}
          aria-describedby={def.help ? `${def.name}-help` : undefined}
          onChange={(e) => onChange(def.name, e.target.value === 'color' ? lastColor : e.target.value)}
        >
          {def.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
          <option value="color">Colour</option>
        </NativeSelect>
        {isColor && (
          <>
            <input
              type="color"
              aria-label={`${def.label} colour`}
              value={value.toLowerCase()}
              disabled={disabled}
              className="h-9 w-12 cursor-pointer rounded border bg-transparent"
              onChange={(e) => {
                setLastColor(e.target.value);
                onChange(def.name, e.target.value);
              }}
            />
            <span
              className="inline-block h-9 w-9 shrink-0 rounded-full border"
              style={{ backgroundColor: value }}
              role="img"
              aria-label={`Preview: ${value}`}
              data-testid={`${id}-swatch`}
            />
          </>
        )}
      </div>
    </>
  );
}

function Control({
  def,
  value,
  onChange,
  disabled,
}: {
  def: ParamDef;
  value: ParamValue;
  onChange(name: string, value: ParamValue): void;
  disabled: boolean;
}) {
  const id = `param-${def.name}`;
  const describedBy = def.help ? `${def.name}-help` : undefined;
  switch (def.kind) {
    case 'text': {
      const Field = def.multiline ? Textarea : Input;
      return (
        <>
          <Label htmlFor={id}>
            {def.label}
            {def.required && (
              <span className="text-destructive" aria-hidden>
                {' '}
                *
              </span>
            )}
          </Label>
          <Field
            id={id}
            name={def.name}
            value={String(value)}
            required={def.required}
            maxLength={def.maxLength}
            placeholder={def.placeholder}
            aria-describedby={describedBy}
            disabled={disabled}
            className={def.multiline ? 'min-h-24' : undefined}
            onChange={(e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
              onChange(def.name, e.target.value)
            }
          />
        </>
      );
    }
    case 'number':
      if (def.slider) {
        return (
          <>
            <div className="flex items-center justify-between">
              <Label id={`${id}-label`}>{def.label}</Label>
              <span className="text-sm tabular-nums text-muted-foreground" data-testid={`${id}-value`}>
                {Number(value)}
              </span>
            </div>
            <Slider
              min={def.min}
              max={def.max}
              step={def.step}
              value={[Number(value)]}
              onValueChange={([v]) => v !== undefined && onChange(def.name, v)}
              disabled={disabled}
              thumbLabel={def.label}
              aria-labelledby={`${id}-label`}
            />
          </>
        );
      }
      return (
        <>
          <Label htmlFor={id}>{def.label}</Label>
          <Input
            id={id}
            name={def.name}
            type="number"
            min={def.min}
            max={def.max}
            step={def.step}
            value={String(value)}
            aria-describedby={describedBy}
            disabled={disabled}
            onChange={(e) => onChange(def.name, e.target.value === '' ? '' : Number(e.target.value))}
          />
        </>
      );
    case 'boolean':
      return (
        <div className="flex items-center gap-2 pt-6">
          <Checkbox
            id={id}
            name={def.name}
            checked={Boolean(value)}
            disabled={disabled}
            onCheckedChange={(checked) => onChange(def.name, checked === true)}
          />
          <Label htmlFor={id}>{def.label}</Label>
        </div>
      );
    case 'select':
      if (def.color) return <ColorSelect def={def} value={String(value)} onChange={onChange} disabled={disabled} />;
      return (
        <>
          <Label htmlFor={id}>{def.label}</Label>
          <NativeSelect
            id={id}
            name={def.name}
            value={String(value)}
            disabled={disabled}
            onChange={(e) => onChange(def.name, e.target.value)}
          >
            {def.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </NativeSelect>
        </>
      );
  }
}
