// Types of build-collector.mjs (a plain script, also run by hand).
export declare const SOURCE_DIR: string;
export declare class GoMissingError extends Error {
  constructor(what?: string);
}
export declare function collectorHash(): string;
export declare function collectorPath(): string;
export interface GoCaches {
  GOMODCACHE: string;
  GOCACHE: string;
  private: boolean;
}
export declare function goCaches(goEnvOutput?: string, exists?: (path: string) => boolean): GoCaches;
export declare function goEnv(base?: NodeJS.ProcessEnv, caches?: GoCaches): NodeJS.ProcessEnv;
export declare function ensureCollector(options?: { log?: (line: string) => void }): Promise<string>;
export declare function goVersion(env: NodeJS.ProcessEnv): string | undefined;
export declare function removePrivateCaches(env: NodeJS.ProcessEnv, log: (line: string) => void): void;
export declare function runLogged(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; log: (line: string) => void },
): Promise<void>;
export declare function printBuilt(ensure: () => Promise<string>, name: string): Promise<void>;
