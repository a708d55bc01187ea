import { fstatSync, lstatSync, readlinkSync, realpathSync, statSync, type Stats } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";

/** Links followed at most, as the kernel follows them (ELOOP past 40). */
const MAX_LINKS = 40;

/**
 * Where a symbolic link points: its real path, or for a dangling link the path it names, links followed
 * (a file written through it is created there, the link kept).
 */
export function linkTarget(link: string): string {
  try {
    return realpathSync(link);
  } catch {
    let path = link;
    for (let n = 0; n < MAX_LINKS && isLink(path); n++) {
      // Not joined: "link/.." is where the kernel goes, not where the letters cancel out.
      const to = readlinkSync(path);
      path = isAbsolute(to) ? to : `${dirname(path)}/${to}`;
    }
    return path;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * What tells one file from another whatever names it: a regular file's device and inode (a hard or symbolic
 * link to it is the same file), or, for a file not there yet, the absolute path it would be made at (its
 * folder's real path, a dangling link followed). Undefined for what no output can be (a folder, a device, a
 * FIFO, a name that cannot be looked at), so that it is never taken for another file.
 */
export function fileIdentity(path: string): string | undefined {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") return undefined;
    const target = isLink(path) ? linkTarget(path) : path;
    return `path:${join(realFolder(dirname(target)), basename(target))}`;
  }
  return regular(stat);
}

/** The identity of what a descriptor is open on (stdin, stdout), where that is a regular file. */
export function descriptorIdentity(fd: number): string | undefined {
  try {
    return regular(fstatSync(fd));
  } catch {
    return undefined;
  }
}

function regular(stat: Stats): string | undefined {
  return stat.isFile() ? `inode:${stat.dev}:${stat.ino}` : undefined;
}

/** A folder's real path, as the kernel walks it ("sub/.." through a link to a folder elsewhere is that one's parent). */
function realFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return resolve(folder);
  }
}
