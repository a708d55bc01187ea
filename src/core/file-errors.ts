/** What went wrong with a file, in words. */
export function fileErrorReason(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "ENOENT":
      return "no such file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "it is a directory";
    default:
      return err.message;
  }
}
