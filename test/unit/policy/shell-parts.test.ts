// src/policy/shell-parts.ts: a command line as the simple commands it runs, or nothing where it cannot be
// split for certain (then no pattern allows it: docs/permissions.md "Rules").
import { describe, expect, it } from "vitest";
import { shellParts, WILD } from "../../../src/policy/shell-parts.js";

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
    // Redirections are not words, wherever they stand.
    ["npm test 2>&1 > out.txt", ["npm test"]],
    ["npm test &> out.txt", ["npm test"]],
    ["git >/dev/null push", ["git push"]],
    ["git 2>&1 push >| x", ["git push"]],
    ["echo a>b", ["echo a"]],
    ["echo a2>b 2>c", ["echo a2"]],
    [">/dev/null rm -rf x", ["rm -rf x"]],
    ["2> err rm -rf x", ["rm -rf x"]],
    ["FOO=1 >out rm -rf x", ["FOO=1 rm -rf x"]],
    ["cat < $(ls x) >&2", ["ls x", "cat"]],
    ["g\\it   status  # a comment; rm x", ["git status"]],
    ["FOO=1 BAR=2 make", ["FOO=1 BAR=2 make"]],
    [`echo ${"$"}{HOME}`, [`echo ${"$"}{HOME}`]],
    ["sleep 1 &", ["sleep 1"]],
    ["a;", ["a"]],
  ])("%j is %j", (command, parts) => {
    expect(texts(command)).toEqual(parts);
  });

  it("keeps what a part runs without its leading assignments", () => {
    expect(shellParts("FOO=1 rm -rf x")).toMatchObject([{ text: "FOO=1 rm -rf x", bare: "rm -rf x" }]);
  });

  it.each([
    ["echo hi > out.txt", true],
    ["echo hi >> ~/.profile", true],
    ["echo hi >| out", true],
    ["echo hi &> out", true],
    ["echo hi &>> out", true],
    ["echo hi >& out", true],
    ["cat <> out", true],
    ["echo hi > $F", true],
    ["git status > ~/.bashrc", true],
    ["echo hi > /dev/null", false],
    ["echo hi 2>/dev/null >&2", false],
    ["echo hi 2>&1 >&-", false],
    ["wc -l < in.txt", false],
    ["echo '>' \\> \">\"", false],
  ])("%j writes to a file: %s", (command, writes) => {
    expect(shellParts(command)?.map((part) => part.writes)).toEqual([writes]);
  });

  // What is known only when the command runs is a WILD in the part's shape: a deny pattern reads it as anything.
  it.each([
    ["git $(echo push)", `git ${WILD}`],
    ["git $P", `git ${WILD}`],
    [`git pre${"$"}{X}post`, `git pre${WILD}post`],
    ["git `echo push`", `git ${WILD}`],
    ["git {push,}", `git ${WILD}`],
    ["git pu{s,}h", `git ${WILD}`],
    ["git {1..3}", `git ${WILD}`],
    ["git pus?", `git pus${WILD}`],
    ["git [p]ush", `git ${WILD}`],
    ["find . -exec rm {} +", "find . -exec rm {} +"],
    ["echo '$X' \\* \"{a,b}\"", "echo $X * {a,b}"],
  ])("%j has the shape %j", (command, shape) => {
    expect(shellParts(command)?.at(-1)?.shape).toBe(shape);
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
    "echo \0",
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
