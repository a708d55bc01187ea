// src/backends/shell-parts.ts: a command line as the simple commands it runs, or nothing where it cannot be
// split for certain (then no pattern allows it: docs/permissions.md "Rules").
import { describe, expect, it } from "vitest";
import { shellParts } from "../../../src/backends/shell-parts.js";

const texts = (command: string) => shellParts(command)?.map((part) => part.text);

describe("shellParts", () => {
  it.each([
    ["git status", ["git status"]],
    ["git status; rm -rf x", ["git status", "rm -rf x"]],
    ["a && b || c | d |& e & f", ["a", "b", "c", "d", "e", "f"]],
    ["a\nb\n\nc", ["a", "b", "c"]],
    ["a &&\n b", ["a", "b"]],
    ["echo $(rm -rf x)", ["rm -rf x", "echo $(rm -rf x)"]],
    ['echo "$(whoami) `id`"', ["whoami", "id", "echo $(whoami) `id`"]],
    ["(cd x && make) | tee log", ["cd x", "make", "tee log"]],
    ["diff <(ls a) >(wc -l)", ["ls a", "wc -l", "diff <(ls a) >(wc -l)"]],
    ["git commit -m 'a; b' && echo \"c|d\"", ["git commit -m a; b", "echo c|d"]],
    ["npm test 2>&1 > out.txt", ["npm test 2>&1 > out.txt"]],
    ["npm test &> out.txt", ["npm test &> out.txt"]],
    ["g\\it   status  # a comment; rm x", ["git status"]],
    ["FOO=1 BAR=2 make", ["FOO=1 BAR=2 make"]],
    [`echo ${"$"}{HOME}`, [`echo ${"$"}{HOME}`]],
    ["sleep 1 &", ["sleep 1"]],
    ["a;", ["a"]],
  ])("%j is %j", (command, parts) => {
    expect(texts(command)).toEqual(parts);
  });

  it("keeps what a part runs without its leading assignments", () => {
    expect(shellParts("FOO=1 rm -rf x")).toEqual([{ text: "FOO=1 rm -rf x", bare: "rm -rf x" }]);
  });

  it.each([
    "echo 'unclosed",
    'echo "unclosed',
    "echo $(unclosed",
    "echo `unclosed",
    "cat <<EOF\nx\nEOF",
    "cat <<<word",
    "echo $((1 + 2))",
    "echo $'\\x41'",
    "for f in *; do rm $f; done",
    "if true; then rm x; fi",
    "{ rm x; }",
    "! rm x",
    "case x in a) rm x;; esac",
    "$CMD -rf x",
    "$(echo rm) -rf x",
    "r? -rf x",
    "{rm,-rf,x}",
    ">/dev/null rm -rf x",
    "2> err rm -rf x",
    "FOO=1 >out rm -rf x",
    "[[ -f x ]] && rm x",
    `echo ${"$"}{X:-$(rm x)}`,
    "a && && b",
    "| b",
    "; b",
    "a |",
    "echo (x)",
    "echo x)",
    "echo `a\\`b`",
    "trailing\\",
    `${"(".repeat(40)}x${")".repeat(40)}`,
  ])("cannot split %j", (command) => {
    expect(shellParts(command)).toBeUndefined();
  });
});
