// The request's way down (docs/development.md): from where the CLI, the library and compare hand it on,
// the files it reaches and the climbs back up are the page's figures; nothing below calls back up with it,
// and planning takes back from below only the backend's command and the executable found.
import { describe, expect, it } from "vitest";
import { readDoc, section } from "../helpers/docs.js";
import { followRequest, type RequestPath, type Start } from "../helpers/request-path.js";

const STARTS: Record<string, Start> = {
  "`prepareRun(request)`, shared by the CLI, the library and compare": {
    file: "app/agent-run.ts",
    fn: "prepareRun",
    param: "request",
  },
  "the CLI's `runWith(request)`": { file: "cli/run-command.ts", fn: "runWith", param: "request" },
  "the library's `run(options)`": { file: "lib/run.ts", fn: "run", param: "options" },
};

/** The page's table: each start's files and climbs. */
function documented(): Map<string, { files: number; climbs: number }> {
  const rows = section(readDoc("docs/development.md"), "## The request's way down")
    .split("\n")
    .map((line) => /^\| (.+) \| (\d+) \| (\d+) \|$/.exec(line))
    .filter((match) => match !== null);
  return new Map(rows.map((m) => [m[1]!, { files: Number(m[2]), climbs: Number(m[3]) }]));
}

const followed = new Map<string, RequestPath>();
const pathFrom = (label: string): RequestPath => {
  const known = followed.get(label) ?? followRequest(STARTS[label]!);
  followed.set(label, known);
  return known;
};

describe("the request's way down", () => {
  it("the page names each start the test follows", () => {
    expect([...documented().keys()].sort()).toEqual(Object.keys(STARTS).sort());
  });

  for (const label of Object.keys(STARTS)) {
    it(`from ${label}: the files and climbs the page says, and no callback up`, () => {
      const path = pathFrom(label);
      const shown = `files:\n  ${path.files.join("\n  ")}\nclimbs:\n  ${path.climbs.join("\n  ")}`;
      expect({ files: path.files.length, climbs: path.climbs.length }, shown).toEqual(documented().get(label));
      expect(path.climbs.filter((climb) => climb.endsWith("(callback)"))).toEqual([]);
    });
  }

  it("planning takes back from below only the backend's command and the executable found", () => {
    const intoPlanning = pathFrom("`prepareRun(request)`, shared by the CLI, the library and compare").climbs;
    expect(intoPlanning).toEqual([
      "app/agent-run.ts:planRun <- backends/native-input.ts:argv (returns)",
      "app/agent-run.ts:planRun <- backends/native-input.ts:prompt (returns)",
      "app/agent-run.ts:planRun <- backends/native-input.ts:reachBackend (returns)",
      "app/agent-run.ts:planRun <- run/executable.ts:findExecutable (returns)",
    ]);
  });
});
