// How the test collector is built and provided (test/otel/build-collector.mjs,
// test/otel/collector.global-setup.ts): once, cached by the hash of its
// sources; without Go, a notice and skipped tests, or (CI) an error.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { collectorPath, GoMissingError, goCaches, goEnv } from "./otel/build-collector.mjs";
import { provideCollector } from "./otel/collector.global-setup.js";

const SCRIPT = fileURLToPath(new URL("./otel/build-collector.mjs", import.meta.url));
const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** A PATH with node and the usual tools but no Go. */
const PATH_WITHOUT_GO = [dirname(process.execPath), "/usr/bin", "/bin"].join(":");

function fakeProject() {
  const provided: Record<string, unknown> = {};
  return {
    provided,
    provide: (key: string, value: unknown) => {
      provided[key] = value;
    },
  };
}

describe("provideCollector (the globalSetup)", () => {
  it("provides the built binary's path as otelcolPath", async () => {
    const project = fakeProject();
    await provideCollector(project, { env: {}, ensure: async () => "/x/otelcol" });
    expect(project.provided).toEqual({ otelcolPath: "/x/otelcol" });
  });

  it("without Go: provides nothing and says so (the collector tests then skip)", async () => {
    const project = fakeProject();
    let said = "";
    await provideCollector(project, {
      env: {},
      ensure: () => Promise.reject(new GoMissingError()),
      notice: (t) => (said += t),
    });
    expect(project.provided).toEqual({});
    expect(said).toMatch(/NOTICE: the Go toolchain .* not on PATH.*SKIPPED/);
  });

  it("without Go and AGENTSTREAM_REQUIRE_COLLECTOR=1: fails", async () => {
    await expect(
      provideCollector(fakeProject(), {
        env: { AGENTSTREAM_REQUIRE_COLLECTOR: "1" },
        ensure: () => Promise.reject(new GoMissingError()),
        notice: () => {},
      }),
    ).rejects.toBeInstanceOf(GoMissingError);
  });

  it("a failed build fails whether or not the collector is required", async () => {
    await expect(
      provideCollector(fakeProject(), {
        env: {},
        ensure: () => Promise.reject(new Error("go build failed")),
        notice: () => {},
      }),
    ).rejects.toThrow("go build failed");
  });
});

describe("build-collector.mjs", () => {
  it("without Go on PATH and nothing cached: exit 2, a message on stderr, nothing on stdout, no file left", () => {
    const dir = mkdtempSync(join(tmpdir(), "agentstream-otelcol-cache-"));
    try {
      const run = spawnSync(process.execPath, [SCRIPT], {
        env: { PATH: PATH_WITHOUT_GO, AGENTSTREAM_OTELCOL_DIR: dir },
        encoding: "utf8",
      });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/otelcol: the Go toolchain \(`go`\) is not on PATH/);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!inject("otelcolPath"))("once built, prints the cached binary without building again, Go or no Go", () => {
    // AGENTSTREAM_OTELCOL_DIR, where set, moves the cache for this test's child as for the suite.
    const moved = process.env.AGENTSTREAM_OTELCOL_DIR;
    const env = { PATH: PATH_WITHOUT_GO, ...(moved ? { AGENTSTREAM_OTELCOL_DIR: moved } : {}) };
    const run = spawnSync(process.execPath, [SCRIPT], { env, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${inject("otelcolPath")}\n`);
    expect(run.stderr).not.toContain("building");
    expect(inject("otelcolPath")).toBe(collectorPath());
    const [root, hash, binary] = [
      dirname(dirname(collectorPath())),
      basename(dirname(collectorPath())),
      basename(collectorPath()),
    ];
    expect(root).toBe(moved ? resolve(moved) : fileURLToPath(new URL("../.cache/otelcol", import.meta.url)));
    expect([hash, binary]).toEqual([expect.stringMatching(/^[0-9a-f]{16}$/), "otelcol"]);
  });
});

describe("Go's caches (goCaches, goEnv)", () => {
  const both = (exists: Set<string>) => (path: string) => exists.has(path);

  it("the user's own (go env GOMODCACHE GOCACHE) when both folders exist: nothing downloaded twice", () => {
    const caches = goCaches(
      "/u/go/pkg/mod\n/u/.cache/go-build\n",
      both(new Set(["/u/go/pkg/mod", "/u/.cache/go-build"])),
    );
    expect(caches).toEqual({ GOMODCACHE: "/u/go/pkg/mod", GOCACHE: "/u/.cache/go-build", private: false });
  });

  it("else private ones under .cache/go/ (one folder missing, or no go env at all)", () => {
    const priv = { GOMODCACHE: join(ROOT, ".cache", "go", "mod"), GOCACHE: join(ROOT, ".cache", "go", "build") };
    expect(goCaches("/u/go/pkg/mod\n/u/.cache/go-build\n", both(new Set(["/u/go/pkg/mod"])))).toEqual({
      ...priv,
      private: true,
    });
    expect(goCaches("")).toEqual({ ...priv, private: true });
  });

  it("goEnv: only a private module cache is made deletable (-modcacherw); go.sum is the law either way", () => {
    const own = goEnv({}, { GOMODCACHE: "/m", GOCACHE: "/b", private: false });
    expect(own).toMatchObject({ GOMODCACHE: "/m", GOCACHE: "/b", GOFLAGS: "-mod=readonly -buildvcs=false" });
    const priv = goEnv({}, { GOMODCACHE: "/m", GOCACHE: "/b", private: true });
    expect(priv.GOFLAGS).toBe("-modcacherw -mod=readonly -buildvcs=false");
  });

  it.skipIf(spawnSync("go", ["version"]).status !== 0)(
    "asks the real go: caches named by GOMODCACHE/GOCACHE are used",
    () => {
      const home = mkdtempSync(join(tmpdir(), "agentstream-gocache-"));
      try {
        const [mod, build] = [join(home, "mod"), join(home, "build")];
        mkdirSync(mod);
        mkdirSync(build);
        const env = goEnv({ ...process.env, GOMODCACHE: mod, GOCACHE: build });
        expect([env.GOMODCACHE, env.GOCACHE]).toEqual([mod, build]);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
  );
});
