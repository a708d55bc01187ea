// --output text writes the final answer. On a terminal (a real pty here) its
// control sequences are shown, never sent: no screen clear, no OSC 52 write to
// the user's clipboard, no retitle, no bell, no C1 control. Into a pipe or a
// file the answer is written byte for byte.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, runCli } from "../../helpers/cli.js";
import { Scratch } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

const ANSWER = "Done.\u001b[2J\u001b]52;c;cHduZWQ=\u0007\u001b]0;pwned\u0007\u0007\u009b31m\n\tindented line\n";
const SHOWN = "Done.␛[2J␛]52;c;cHduZWQ=␇␛]0;pwned␇␇\\u009b31m\n\tindented line\n";

function recording(): string {
  const file = join(scratch.dir, "hostile-answer.jsonl");
  writeFileSync(file, `${JSON.stringify({ type: "done", response: ANSWER })}\n`);
  return file;
}

// stdout on the slave side of a real pty; everything the master reads comes back as hex.
const ON_PTY = `
import os, pty, subprocess, sys
master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[1:], stdout=slave, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
child.wait()
sys.stdout.write(out.hex() + " " + str(child.returncode))
`;

describe("--output text", () => {
  it("on a terminal: every control character of the answer shown, none sent; newlines and tabs kept", () => {
    const result = spawnSync(
      "python3",
      [
        "-c",
        ON_PTY,
        process.execPath,
        BIN,
        "normalize",
        "--from",
        "evosci",
        "--backend-exit",
        "0",
        "--output",
        "text",
        recording(),
      ],
      { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
    );
    expect(result.status, result.stderr).toBe(0);
    const [hex, code] = result.stdout.split(" ");
    expect(code).toBe("0");
    // The terminal turns each newline into CR LF.
    const screen = Buffer.from(hex!, "hex").toString("utf8").replaceAll("\r\n", "\n");
    expect(screen).toBe(SHOWN);
    expect(screen).not.toMatch(/[\u001b\u0007\u0080-\u009f]/);
  });

  it("into a pipe: the answer as it is, byte for byte", async () => {
    const result = await runCli([
      "normalize",
      "--from",
      "evosci",
      "--backend-exit",
      "0",
      "--output",
      "text",
      recording(),
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(ANSWER);
  });
});
