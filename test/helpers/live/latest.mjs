// The newest published release of each live-tested backend, for
// `npm run test:live -- --latest`: npm's `latest` dist-tag (or the platform
// package's, where that binary runs ahead of its wrapper), PyPI's newest.
import { spawnCollect } from "./spawn-collect.mjs";

const LOOKUP_TIMEOUT_MS = 60_000;

/**
 * For each backend, a target for its newest release beside the newest pin,
 * unless that pin is the newest. A target carries `latestOf` (the pin's id).
 */
export async function latestTargets(pins, lookup = registryLookup) {
  const newestPins = new Map();
  for (const pin of pins) newestPins.set(pin.backend, pin);
  const found = await Promise.all(
    [...newestPins.values()].map(async (pin) => {
      const newest = await newestRelease(pin, lookup);
      // The pin is the newest release, whether of the wrapper or of the platform package ahead of it.
      if (newest.package === pin.package && newest.version === pin.version) return undefined;
      return { ...pin, ...newest, id: `${pin.backend}-${newest.version}`, latestOf: pin.id };
    }),
  );
  return found.filter(Boolean);
}

async function newestRelease(pin, lookup) {
  if (pin.registry === "pypi") return { package: pin.package, version: await lookup.pypiNewest(pin.package) };
  const version = await lookup.npmLatest(pin.package);
  if (pin.node !== "native") return { package: pin.package, version };
  // A native binary in a platform package: that package may have a newer release than the wrapper names.
  const platformPackage = `${pin.platformPrefix ?? pin.package}-${nativePlatform()}`;
  const spec = (await lookup.npmOptionalDependencies(pin.package, version))[platformPackage];
  if (spec === undefined || spec.startsWith("npm:")) return { package: pin.package, version };
  const platformVersion = await lookup.npmLatest(platformPackage);
  return newerThan(platformVersion, version)
    ? { package: pin.package, version: platformVersion, platformPackage }
    : { package: pin.package, version };
}

/** Numeric release order (pre-release tags ignored: `latest` never names one here). */
export function newerThan(a, b) {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) > (pb[i] ?? 0);
  return false;
}

export function nativePlatform() {
  const base = `${process.platform}-${process.arch}`;
  return process.platform === "linux" && !process.report?.getReport().header.glibcVersionRuntime
    ? `${base}-musl`
    : base;
}

const registryLookup = {
  async npmLatest(name) {
    return JSON.parse(await lookupOutput("npm", ["view", name, "dist-tags.latest", "--json"]));
  },
  async npmOptionalDependencies(name, version) {
    const out = (await lookupOutput("npm", ["view", `${name}@${version}`, "optionalDependencies", "--json"])).trim();
    return out === "" ? {} : JSON.parse(out);
  },
  async pypiNewest(name) {
    const out = await lookupOutput("python3", ["-m", "pip", "index", "versions", name, "--disable-pip-version-check"]);
    const match = /\(([^)]+)\)/.exec(out);
    if (!match) throw new Error(`pip index versions ${name}: no version in ${JSON.stringify(out)}`);
    return match[1];
  },
};

async function lookupOutput(command, args) {
  const result = await spawnCollect(command, args, { timeoutMs: LOOKUP_TIMEOUT_MS });
  if (result.exitCode !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr.slice(-2000)}`);
  return result.stdout;
}
