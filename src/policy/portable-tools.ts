// The tool names a rule is written in for every backend (--allow-tool shell): the rules' grammar
// (tool-rules.ts) and the live answerer read them; each backend maps them to its own (src/backends/permissions.ts).

/** Tool names every backend is asked in (`--allow-tool shell`): each backend maps them to its own. */
export const PORTABLE_TOOLS = ["shell", "read", "write", "edit", "web_fetch", "web_search"] as const;
export type PortableTool = (typeof PORTABLE_TOOLS)[number];
