/**
 * With both NO_COLOR and FORCE_COLOR set, Node warns on stderr that NO_COLOR
 * is ignored (as soon as a colour library asks the terminal). agentstream's
 * rule is the same (FORCE_COLOR wins, documented in the README), so the
 * warning only clutters the user's stderr: this one warning is dropped.
 */
export function dropColourConflictWarning(): void {
  if (process.env.NO_COLOR === undefined || process.env.FORCE_COLOR === undefined) return;
  const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = ((warning: unknown, ...rest: unknown[]) => {
    if (typeof warning === "string" && warning.startsWith("The 'NO_COLOR' env is ignored")) return;
    emit(warning, ...rest);
  }) as typeof process.emitWarning;
}
