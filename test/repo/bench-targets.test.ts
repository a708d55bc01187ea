// The bench's targets (reported, never asserted on measured figures): memory
// flatness compares each protocol's smallest and largest stream, in peak RSS
// and in what the heap still holds at the end, whatever order the rows came in.
import { describe, expect, it } from "vitest";

interface Target {
  name: string;
  value: string;
  met: boolean;
}
const { checkTargets } = (await import(new URL("../bench/targets.mjs", import.meta.url).href)) as {
  checkTargets: (results: {
    throughput: object[];
    startup: object[];
    latency: object;
    atif?: object;
    compare_cells?: object;
  }) => Target[];
};

const row = (size: string, megabytes: number, peak: number, heap: number) => ({
  protocol: "gemini",
  size,
  program: "agentstream normalize",
  input_bytes: megabytes * 1024 * 1024,
  time_vs_minimal: 1.1,
  peak_rss_mib: peak,
  heap_after_gc_mib: heap,
});

function targets(rows: object[]): Record<string, Target> {
  return Object.fromEntries(checkTargets({ throughput: rows, startup: [], latency: {} }).map((t) => [t.name, t]));
}

describe("bench targets: memory flat", () => {
  it("compares the largest stream with the smallest, whatever the rows' order", () => {
    const t = targets([row("200 MB", 200, 104, 7.9), row("40 MB", 40, 101, 7.0)]);
    expect(t["normalize gemini: peak RSS at 200 MB same as at 40 MB (±10 MiB)"]).toMatchObject({
      value: "+3 MiB",
      met: true,
    });
    expect(t["normalize gemini: heap after GC at the end of 200 MB same as of 40 MB (±2 MiB)"]).toMatchObject({
      value: "+0.9 MiB",
      met: true,
    });
    expect(t["normalize gemini 200 MB: time ≤ 1.2× minimal node"]).toMatchObject({ met: true });
    expect(t["normalize gemini 200 MB: peak RSS ≤ 100 MiB"]).toMatchObject({ met: false });
  });

  it("a heap that holds more at the end of the larger stream misses the target", () => {
    const t = targets([row("40 MB", 40, 101, 8.9), row("200 MB", 200, 105, 15.5)]);
    expect(t["normalize gemini: heap after GC at the end of 200 MB same as of 40 MB (±2 MiB)"]).toMatchObject({
      value: "+6.6 MiB",
      met: false,
    });
  });

  it("one size alone has no flatness target", () => {
    const t = targets([row("40 MB", 40, 101, 7.0)]);
    expect(Object.keys(t).filter((name) => name.includes("same as"))).toEqual([]);
  });
});

describe("bench targets: against jq", () => {
  const rows = (floorVsJq: number, vsJq: number) => [
    { ...row("40 MB", 40, 90, 7), time_vs_jq: vsJq },
    { protocol: "gemini", size: "40 MB", program: "minimal node translator", time_vs_jq: floorVsJq },
  ];

  it("asks for 1.1x jq's time where jq beats the minimal program", () => {
    expect(targets(rows(1.05, 1.08))["normalize gemini 40 MB: time ≤ 1.1× jq -c ."]).toMatchObject({ met: true });
  });

  it("asks to beat jq where the minimal program does", () => {
    expect(targets(rows(0.9, 1.02))["normalize gemini 40 MB: time < 1.0× jq -c ."]).toMatchObject({ met: false });
  });
});

describe("bench targets: export atif", () => {
  it("holds export atif within 1.5× normalize, per protocol measured", () => {
    const atif = [
      { protocol: "evosci", megabytes: 40, ratio: 1.2, target: 1.5 },
      { protocol: "claude", megabytes: 40, ratio: 1.7, target: 1.5 },
    ];
    const t = Object.fromEntries(
      checkTargets({ throughput: [], startup: [], latency: {}, atif }).map((target) => [target.name, target]),
    );
    expect(t["export atif evosci 40 MB: time ≤ 1.5× normalize"]).toMatchObject({ value: "1.20×", met: true });
    expect(t["export atif claude 40 MB: time ≤ 1.5× normalize"]).toMatchObject({ value: "1.70×", met: false });
    // Not measured (--only another part): no target.
    expect(checkTargets({ throughput: [], startup: [], latency: {}, atif: { skipped: "x" } })).toEqual([]);
  });
});

describe("bench targets: compare", () => {
  const cell = (cells: number, ratio: number, peak: number) => ({
    cells,
    ratio,
    target: 1.1,
    peak_rss_mib: { compare: peak, loop: 80 },
  });
  const t = (rows: object[]) =>
    Object.fromEntries(
      checkTargets({ throughput: [], startup: [], latency: {}, compare_cells: { rows } }).map((x) => [x.name, x]),
    );

  it("holds compare's time per cell within 1.1× the xargs loop's, at each number of cells", () => {
    const targets = t([cell(25, 1.04, 90), cell(100, 1.15, 92)]);
    expect(targets["compare 25 cells: time per cell ≤ 1.1× xargs -P loop"]).toMatchObject({
      value: "1.04×",
      met: true,
    });
    expect(targets["compare 100 cells: time per cell ≤ 1.1× xargs -P loop"]).toMatchObject({
      value: "1.15×",
      met: false,
    });
  });

  it("peak RSS flat: the most cells against the fewest, within 10 MiB", () => {
    expect(
      t([cell(25, 1, 90), cell(50, 1, 95), cell(100, 1, 99)])["compare: peak RSS at 100 cells same as at 25 (±10 MiB)"],
    ).toMatchObject({
      value: "+9 MiB",
      met: true,
    });
    expect(
      t([cell(25, 1, 90), cell(100, 1, 130)])["compare: peak RSS at 100 cells same as at 25 (±10 MiB)"],
    ).toMatchObject({
      value: "+40 MiB",
      met: false,
    });
    // Not measured (--only another part): no target.
    expect(checkTargets({ throughput: [], startup: [], latency: {}, compare_cells: { skipped: "x" } })).toEqual([]);
  });

  it("a row of compare alone (no loop): no time target, its peak RSS held against the most cells timed", () => {
    const alone = { cells: 400, target: 1.1, peak_rss_mib: { compare: 101 } };
    const targets = t([cell(25, 1, 80), cell(100, 1, 99), alone]);
    expect(Object.keys(targets).filter((name) => name.includes("400 cells: time"))).toEqual([]);
    expect(targets["compare: peak RSS at 100 cells same as at 25 (±10 MiB)"]).toMatchObject({
      value: "+19 MiB",
      met: false,
    });
    expect(targets["compare: peak RSS at 400 cells same as at 100 (±10 MiB)"]).toMatchObject({
      value: "+2 MiB",
      met: true,
    });
  });
});
