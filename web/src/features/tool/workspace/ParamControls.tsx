import type { ParamDef, Params, ParamValue } from '@ai-editor/core';
import { Checkbox } from '@/components/ui/checkbox';
import { Input, Label, Textarea } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Slider } from '@/components/ui/slider';

/** The operation's parameters as form controls, straight from the catalogue (kinds, ranges, defaults, help). */
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
  return (
    <div className="grid gap-5 sm:grid-cols-2" data-testid="tool-controls">
      {defs.map((def) => (
        <div key={def.name} className={def.kind === 'text' ? 'space-y-2 sm:col-span-2' : 'space-y-2'}>
          <Control def={def} value={values[def.name] ?? def.default} onChange={onChange} disabled={disabled} />
          {def.help && (
            <p id={`${def.name}-help`} className="text-sm text-muted-foreground">
              {def.help}
            </p>
          )}
        </div>
      ))}
    </div>
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
