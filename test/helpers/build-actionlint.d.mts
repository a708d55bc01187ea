// Types of build-actionlint.mjs (a plain script, also run by hand).
export declare const ACTIONLINT_VERSION: string;
export declare function actionlintPath(): string;
export declare function ensureActionlint(options?: { log?: (line: string) => void }): Promise<string>;
