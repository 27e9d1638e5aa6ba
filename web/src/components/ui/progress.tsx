/** A horizontal progress bar; without a value it shows an indeterminate pulse. */
export function Progress({ value }: { value?: number }) {
  return (
    <div
      className="h-2 w-full overflow-hidden rounded-full bg-muted"
      role="progressbar"
      aria-label="Progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
    >
      {value !== undefined ? (
        <div className="h-full bg-primary transition-[width] duration-500" style={{ width: `${value}%` }} />
      ) : (
        <div className="h-full w-1/3 animate-pulse rounded-full bg-primary/60" />
      )}
    </div>
  );
}
