// Types of build-collector.mjs (a plain script, also run by hand).
export declare const SOURCE_DIR: string;
export declare class GoMissingError extends Error {}
export declare function collectorHash(): string;
export declare function collectorPath(): string;
export declare function goEnv(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function ensureCollector(options?: { log?: (line: string) => void }): Promise<string>;
