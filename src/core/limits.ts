/** A Node timer holds at most 2^31-1 ms; a longer delay fires after 1 ms instead. */
export const MAX_DELAY_MS = 2 ** 31 - 1;
export const MAX_SECONDS = Math.floor(MAX_DELAY_MS / 1000);

/**
 * A kept line is decoded into one string, and with --raw its content is in
 * the output line twice: 256 MiB keeps both under V8's string limit (~512 MiB).
 */
export const MAX_LINE_BYTES_LIMIT = 256 * 1024 * 1024;
