/** The mark of a tool this server cannot run: listed, so that nothing seems missing, but never offered as working. */
export function UnavailableBadge() {
  return (
    <span
      className="shrink-0 rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground"
      data-testid="unavailable-badge"
    >
      Not available on this server
    </span>
  );
}
