import { nonEmpty, objectOrEmpty } from "./fields.js";

/**
 * What a tool call's input says it will run or reach: its command (an argv array read as one command line, each
 * word single-quoted), else every path or URL it names (`path`, `file_path`, `filePath`, `url`, each of `paths`,
 * each key of `changes` or each change's `path`), each once, in that order. The rules match these
 * (src/policy/tool-rules.ts) and a person and the log are shown them (src/human/format.ts): one reading for both.
 */
export function inputTargets(input: Record<string, unknown>): string[] {
  const command = inputCommand(input);
  if (command !== undefined) return [command];
  const changes = input.changes;
  const named = [
    input.path,
    input.file_path,
    input.filePath,
    input.url,
    ...(Array.isArray(input.paths) ? input.paths : []),
    ...(Array.isArray(changes)
      ? changes.map((change) => objectOrEmpty(change).path)
      : Object.keys(objectOrEmpty(changes))),
  ]
    .map(nonEmpty)
    .filter((target) => target !== undefined);
  return [...new Set(named)];
}

/** The input's command as text: a string as given, an argv array each word single-quoted. */
export function inputCommand(input: Record<string, unknown>): string | undefined {
  const command = input.command;
  if (Array.isArray(command) && command.length > 0 && command.every((word) => typeof word === "string"))
    return command.map((word: string) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
  return nonEmpty(command);
}
