// How the test collector is built and provided (test/otel/build-collector.mjs,
// test/otel/collector.global-setup.ts): once, cached by the hash of its
// sources; without Go, a notice and skipped tests, or (CI) an error.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { collectorPath, GoMissingError, goCaches, goEnv, SOURCE_DIR } from "../otel/build-collector.mjs";
import { provideCollector } from "../otel/collector.global-setup.js";

const SCRIPT = fileURLToPath(new URL("../otel/build-collector.mjs", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
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
    expect(root).toBe(moved ? resolve(moved) : fileURLToPath(new URL("../../.cache/otelcol", import.meta.url)));
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

const REAL_GO = spawnSync("sh", ["-c", "command -v go"], { encoding: "utf8" }).stdout.trim();

// `go build` stood in for (minutes and a download otherwise) by a script that leaves what a real one
// leaves: a module cache with a read-only module in it, build cache entries, the binary at -o. Every
// other go command (env, version, clean) is the real go's.
const FAKE_GO = `#!/bin/sh
if [ "$1" != build ]; then exec "$REAL_GO" "$@"; fi
mkdir -p "$GOMODCACHE/example.com/m@v1.0.0" "$GOMODCACHE/cache/download" "$GOCACHE/00"
echo module > "$GOMODCACHE/example.com/m@v1.0.0/go.mod"
chmod -R a-w "$GOMODCACHE/example.com"
echo entry > "$GOCACHE/00/entry"
if [ -n "$FAKE_GO_BUILD_FAILS" ]; then echo "fake build failed" >&2; exit 1; fi
while [ "$1" != -o ]; do shift; done
echo binary > "$2"
`;

/** build-collector.mjs in a checkout of its own (its .cache/ is that checkout's), a fake go build first on PATH. */
function checkoutWithFakeGo(): { root: string; script: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), "agentstream-gocaches-"));
  mkdirSync(join(root, "test", "otel", "collector"), { recursive: true });
  copyFileSync(SCRIPT, join(root, "test", "otel", "build-collector.mjs"));
  for (const file of ["go.mod", "go.sum", "main.go"])
    copyFileSync(join(SOURCE_DIR, file), join(root, "test", "otel", "collector", file));
  mkdirSync(join(root, "bin"));
  writeFileSync(join(root, "bin", "go"), FAKE_GO);
  chmodSync(join(root, "bin", "go"), 0o755);
  mkdirSync(join(root, "home"));
  const env = {
    PATH: [join(root, "bin"), dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
    // A user who has never built Go code: go env names folders under this HOME that do not exist.
    HOME: join(root, "home"),
    REAL_GO,
    AGENTSTREAM_OTELCOL_DIR: join(root, ".cache", "otelcol"),
  };
  return { root, script: join(root, "test", "otel", "build-collector.mjs"), env };
}

/** Every file under dir, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

/** Undo the fake module's read-only folders (Go's own), so that the test's rm works as any user. */
function removeTree(dir: string): void {
  spawnSync("chmod", ["-R", "u+w", dir]);
  rmSync(dir, { recursive: true, force: true });
}

describe.skipIf(REAL_GO === "")("the Go caches a build made itself", () => {
  it("are removed once the binary is built: the checkout keeps only .cache/otelcol/<hash>/otelcol", () => {
    const { root, script, env } = checkoutWithFakeGo();
    try {
      const run = spawnSync(process.execPath, [script], { env, encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toContain(`Go's caches in ${join(root, ".cache", "go", "mod")}`);
      expect(run.stderr).toContain("removed Go's caches of this build");
      expect(filesUnder(join(root, ".cache"))).toEqual([expect.stringMatching(/^otelcol\/[0-9a-f]{16}\/otelcol$/)]);
      expect(readFileSync(run.stdout.trim(), "utf8")).toBe("binary\n");
    } finally {
      removeTree(root);
    }
  });

  it("a failed build keeps them, so that its retry downloads nothing twice", () => {
    const { root, script, env } = checkoutWithFakeGo();
    try {
      const run = spawnSync(process.execPath, [script], {
        env: { ...env, FAKE_GO_BUILD_FAILS: "1" },
        encoding: "utf8",
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("fake build failed");
      expect(existsSync(join(root, ".cache", "go", "mod", "example.com", "m@v1.0.0", "go.mod"))).toBe(true);
      expect(existsSync(join(root, ".cache", "go", "build", "00", "entry"))).toBe(true);
    } finally {
      removeTree(root);
    }
  });

  it("the user's own caches (as CI's, set by GOMODCACHE and GOCACHE) are left with all they hold", () => {
    const { root, script, env } = checkoutWithFakeGo();
    try {
      const [mod, build] = [join(root, "home", "mod"), join(root, "home", "build")];
      mkdirSync(mod);
      mkdirSync(build);
      writeFileSync(join(mod, "theirs"), "x");
      const run = spawnSync(process.execPath, [script], {
        env: { ...env, GOMODCACHE: mod, GOCACHE: build },
        encoding: "utf8",
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).not.toContain("removed");
      expect(filesUnder(mod)).toEqual(["example.com/m@v1.0.0/go.mod", "theirs"]);
      expect(filesUnder(build)).toEqual(["00/entry"]);
      expect(existsSync(join(root, ".cache", "go"))).toBe(false);
    } finally {
      removeTree(root);
    }
  });
});
