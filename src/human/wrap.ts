/**
 * Text cut into lines of at most `width` characters where `separator` is (a
 * space: between words; " · ": between whole fields), a longer piece cut where
 * it must: the first line starts with `lead`, every other one with `indent`.
 */
export function wrapText(text: string, width: number, indent = "", lead = "", separator = " "): string[] {
  const lines: string[] = [];
  let line = "";
  const room = (): number => Math.max(1, width - (lines.length === 0 ? lead : indent).length);
  for (const piece of text.split(separator)) {
    let rest = piece;
    if (line !== "" && line.length + separator.length + rest.length > room()) {
      lines.push(line);
      line = "";
    }
    // A piece longer than a whole line (a path, a token): cut where it must be.
    while (line === "" && rest.length > room()) {
      lines.push(rest.slice(0, room()));
      rest = rest.slice(room());
    }
    line = line === "" ? rest : `${line}${separator}${rest}`;
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines.map((l, i) => `${i === 0 ? lead : indent}${l}`);
}
