// Types of layout.mjs (a plain script, also run by hand: node test/layout.mjs).
export declare const ROOT: string;
export declare const EXCEPTIONS: Record<string, [folder: string, why: string]>;
export declare const MOVED_MODULES: Record<string, string>;
export interface SourceIndex {
  folders: Set<string>;
  byName: Map<string, string[]>;
  commands: string[];
  backends: string[];
}
export interface Place {
  folder: string;
  why: string;
}
export interface Checked {
  file: string;
  folder: string | undefined;
  why: string;
  ok: boolean;
}
export declare function sourceIndex(root?: string): SourceIndex;
export declare function placeFor(relPath: string, text: string, index?: SourceIndex): Place | undefined;
export declare function isLayoutFolder(folder: string, index?: SourceIndex): boolean;
export declare function testFiles(root?: string): string[];
export declare function checkFile(relPath: string, text: string, index?: SourceIndex): Checked;
export declare function layoutReport(root?: string): { files: Checked[]; misplaced: Checked[]; liveImports: string[] };
export declare function rewritePaths(
  text: string,
  from: string,
  to: string,
  options?: { moved?: Map<string, string>; exists?: (path: string) => boolean },
): string;
export declare function rewriteMentions(
  text: string,
  moves: Map<string, string>,
  byName: Map<string, string[]>,
): string;
export declare function applyLayout(root?: string, log?: (line: string) => void): Map<string, string>;
