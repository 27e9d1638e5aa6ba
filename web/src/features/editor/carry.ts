/**
 * The photo the /editor page hands to a tool page: set before navigating, taken (once) by the tool page.
 * Kept in memory only; a reload starts fresh, as a file input would.
 */
let carried: File | undefined;

export function carryPhoto(file: File): void {
  carried = file;
}

/** Returns the carried photo and forgets it, so it is used by one tool page only. */
export function takeCarriedPhoto(): File | undefined {
  const file = carried;
  carried = undefined;
  return file;
}

export function peekCarriedPhoto(): File | undefined {
  return carried;
}
