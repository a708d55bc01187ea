// Start-up cost: what a one-off agentstream call adds over starting Node itself.
import { writeFileSync } from "node:fs";
import { measureProcess } from "./measure-process.mjs";
import { median } from "./stats.mjs";

const ONE_LINE_STREAM = '{"type": "done", "content": "Hi.", "response": "Hi."}\n';

export async function measureStartup({ builds, cacheDir, rounds, log }) {
  const oneLine = `${cacheDir}one-line-evosci.jsonl`;
  writeFileSync(oneLine, ONE_LINE_STREAM);
  const programs = [
    { name: "node -e 0", args: ["-e", "0"] },
    ...builds.flatMap(({ bin, prefix }) => [
      { name: `${prefix}agentstream --version`, args: [bin, "--version"] },
      { name: `${prefix}agentstream normalize (one line)`, args: [bin, "normalize", "--from", "evosci", oneLine] },
      {
        name: `${prefix}agentstream normalize --no-validate (one line)`,
        args: [bin, "normalize", "--from", "evosci", "--no-validate", oneLine],
      },
    ]),
  ];
  const times = new Map(programs.map((p) => [p.name, []]));
  // Round 0 warms the file cache and is not counted.
  for (let round = 0; round <= rounds; round++) {
    for (const program of programs) {
      const result = await measureProcess(process.execPath, program.args, { resources: false });
      if (result.code !== 0) throw new Error(`${program.name} exited with ${result.code}: ${result.stderr.trim()}`);
      if (round > 0) times.get(program.name).push(result.seconds * 1000);
    }
  }
  log(`  start-up: ${rounds} rounds done`);
  const nodeMs = median(times.get("node -e 0"));
  return programs.map((p) => {
    const ms = median(times.get(p.name));
    return { program: p.name, runs: rounds, ms, vs_node: ms / nodeMs };
  });
}
