export interface RegistryLookup {
  npmLatest(name: string): Promise<string>;
  npmOptionalDependencies(name: string, version: string): Promise<Record<string, string>>;
  pypiNewest(name: string): Promise<string>;
}
export interface LatestTarget {
  id: string;
  backend: string;
  package: string;
  version: string;
  latestOf: string;
  platformPackage?: string;
  [field: string]: unknown;
}
export function latestTargets(
  pins: ReadonlyArray<{
    id: string;
    backend: string;
    registry: string;
    package: string;
    version: string;
    node?: string;
  }>,
  lookup?: RegistryLookup,
): Promise<LatestTarget[]>;
export function newerThan(a: string, b: string): boolean;
export function nativePlatform(): string;
