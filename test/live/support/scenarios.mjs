// What the fake model answers in each scenario. A prompt selects its scenario
// with a `scenario:NAME` word; everything after it is free text.

export const ANSWERS = {
  text: "Hello from the fake model. All good.",
  toolIntro: "Let me list the files.",
  toolFinal: "The folder holds notes.txt and data.csv.",
  thinking: "First, check the question; then answer briefly.",
  thinkingFinal: "Forty-two.",
  retry500: "Recovered after one server error.",
  retry429: "Recovered after one rate limit.",
  toolfailFinal: "That file does not exist.",
  slowtoolFinal: "The long command finished.",
  retry529: "Recovered after one overload.",
  deniedFinal: "I was not allowed to create the file.",
  allowedFinal: "I created the file.",
  subagentReport: "Sub-agent here: the folder holds notes.txt and data.csv.",
  subagentFinal: "The sub-agent says the folder holds notes.txt and data.csv.",
  /** The question scenario's model where it has no AskUserQuestion tool: it guesses. */
  questionGuess: "No one to ask: I guess blue.",
  /** Before the tool's result (the answer, as Claude Code words it), quoted after it. */
  questionAnswered: "The user answered:",
};

/** What the question scenario's model asks with Claude Code's AskUserQuestion tool (issue 56). */
export const QUESTION = {
  question: "Which colour should the button be?",
  header: "Colour",
  options: [
    { label: "Red", description: "Warm and loud" },
    { label: "Blue", description: "Calm" },
  ],
  multiSelect: false,
};
export const QUESTION_TOOL = "AskUserQuestion";

/** Token counts each completed model call reports, so totals can be checked exactly. */
export const USAGE_PER_CALL = { input_tokens: 40, output_tokens: 9 };

export const SCENARIOS = {
  text: { prompt: "scenario:text say hello" },
  tool: { prompt: "scenario:tool list the files" },
  thinking: { prompt: "scenario:thinking think then answer" },
  error400: { prompt: "scenario:error400 this request is refused" },
  retry500: { prompt: "scenario:retry500 the first attempt fails" },
  retry429: { prompt: "scenario:retry429 the first attempt is rate limited" },
  error503: { prompt: "scenario:error503 the service is always overloaded" },
  slow: { prompt: "scenario:slow stream slowly until stopped" },
  bare429: { prompt: "scenario:bare429 rate limited once, with no Retry-After" },
  toolfail: { prompt: "scenario:toolfail list a missing file" },
  slowtool: { prompt: "scenario:slowtool run a long command" },
  loop: { prompt: "scenario:loop keep listing the files" },
  // Scenarios beyond the standard ones (`extra`): one backend's live suite runs them, `npm run capture` records them only where asked.
  retry529: { prompt: "scenario:retry529 the first attempt is overloaded (HTTP 529)", extra: true },
  error529: { prompt: "scenario:error529 the service is always overloaded (HTTP 529)", extra: true },
  maxturns: { prompt: "scenario:maxturns list the files, with one model turn allowed", extra: true },
  denied: { prompt: "scenario:denied create a file", extra: true },
  allowed: { prompt: "scenario:allowed create a file, as a rule allows", extra: true },
  // A persistent 503 that asks for a retry in 100 ms (Retry-After-Ms, which Qwen Code, OpenCode and the OpenAI SDK
  // honour): their retries then run out in seconds, not the 70-95 s of their own backoff.
  overloaded: { prompt: "scenario:overloaded the service is always overloaded, retry soon", extra: true },
  subagent: { prompt: "scenario:subagent ask a sub-agent to list the files", extra: true },
  // Claude Code's AskUserQuestion where it is offered (its ACP adapter offers it where the client declares form
  // elicitation), else a guess.
  question: { prompt: "scenario:question ask the user which colour", extra: true },
  // --output-schema (STRUCTURED_SCHEMA): an answer that matches it, and one that does not.
  structured: { prompt: "scenario:structured give the verdict as JSON", extra: true },
  structuredbad: { prompt: "scenario:structuredbad give the verdict as JSON", extra: true },
};

/** The schema the structured scenarios run with (--output-schema), and the answers their model gives. */
export const STRUCTURED_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { verdict: { enum: ["pass", "fail"] }, files: { type: "integer" } },
  required: ["verdict", "files"],
  additionalProperties: false,
};
export const STRUCTURED_ANSWERS = {
  structured: { verdict: "pass", files: 2 },
  // Both fields wrong: the message names both paths.
  structuredbad: { verdict: "maybe", files: "two" },
};
/** The tool Claude Code gives the model for --json-schema: the answer is its input, and calling it ends the turn. */
export const CLAUDE_STRUCTURED_TOOL = "StructuredOutput";

/** The shell commands of the toolfail and slowtool scenarios: one exits 2, one runs for 30 s (an odd number, to be told from other sleeps). */
export const FAILING_COMMAND = "ls no-such-file";
export const SLOW_SLEEP = "sleep 30.01";
export const SLOW_COMMAND = `${SLOW_SLEEP}; echo slept`;

/** The command the denied scenario's shell call runs: it writes, so it needs a permission the run lacks. */
export const DENIED_COMMAND = "touch made-by-tool.txt";
/** What the sub-agent is asked (its own request names its scenario). */
export const SUBAGENT_PROMPT = "scenario:subtask list the files of the working directory";

/** Files the tool scenario's working directory holds. */
export const TOOL_SCENARIO_FILES = { "notes.txt": "some notes\n", "data.csv": "a,b\n1,2\n" };

/**
 * The reply to one model request, provider-neutral (a wire adapter writes it
 * in its provider's format): `{ status, error: { type, message } }` for an
 * HTTP error, or `{ chunks, finish }`: deltas streamed in order (`{content}`,
 * `{reasoning}` or `{tool_call: {name, arguments}}`), then the finish reason
 * (`stop` or `tool_use`). `request` is the adapter's view of the request:
 * `{ userText, lastRole, tools: [{ name, parameters }], stream }`.
 */
export function replyFor(scenario, request, attempt) {
  switch (scenario) {
    case "text":
      return { chunks: [...textChunks(ANSWERS.text)], finish: "stop" };
    case "tool":
    case "maxturns":
      if (request.lastRole === "tool") return { chunks: [...textChunks(ANSWERS.toolFinal)], finish: "stop" };
      return { chunks: [...textChunks(ANSWERS.toolIntro), { tool_call: listFilesCall(request) }], finish: "tool_use" };
    case "thinking":
      return {
        chunks: [...textChunks(ANSWERS.thinking, "reasoning"), ...textChunks(ANSWERS.thinkingFinal)],
        finish: "stop",
      };
    case "error400":
      return httpError(400, "invalid_request_error", "scenario error400: the request was rejected");
    case "retry500":
      if (attempt === 1) return httpError(500, "server_error", "scenario retry500: internal server error");
      return { chunks: [...textChunks(ANSWERS.retry500)], finish: "stop" };
    case "retry429":
      // With Retry-After, as rate limits come (Codex retries a 429 only when told when to).
      if (attempt === 1)
        return httpError(429, "rate_limit_error", "scenario retry429: too many requests", { retryAfterSeconds: 1 });
      return { chunks: [...textChunks(ANSWERS.retry429)], finish: "stop" };
    case "bare429":
      if (attempt === 1) return httpError(429, "rate_limit_error", "scenario bare429: too many requests");
      return { chunks: [...textChunks(ANSWERS.retry429)], finish: "stop" };
    case "error503":
      return httpError(503, "server_error", "scenario error503: the service is overloaded");
    case "retry529":
      if (attempt === 1) return httpError(529, "overloaded_error", "scenario retry529: overloaded");
      return { chunks: [...textChunks(ANSWERS.retry529)], finish: "stop" };
    case "error529":
      return httpError(529, "overloaded_error", "scenario error529: overloaded");
    case "denied":
      if (request.lastRole === "tool") return { chunks: [...textChunks(ANSWERS.deniedFinal)], finish: "stop" };
      return { chunks: [{ tool_call: shellCall(request, DENIED_COMMAND) }], finish: "tool_use" };
    case "allowed":
      if (request.lastRole === "tool") return { chunks: [...textChunks(ANSWERS.allowedFinal)], finish: "stop" };
      return { chunks: [{ tool_call: shellCall(request, DENIED_COMMAND) }], finish: "tool_use" };
    case "overloaded":
      return httpError(503, "server_error", "scenario overloaded: the service is overloaded", { retryAfterMs: 100 });
    case "subagent":
      if (request.lastRole === "tool") return { chunks: [...textChunks(ANSWERS.subagentFinal)], finish: "stop" };
      return { chunks: [{ tool_call: subagentCall(request) }], finish: "tool_use" };
    case "question":
      if (request.lastRole === "tool")
        return { chunks: [...textChunks(`${ANSWERS.questionAnswered} ${request.toolResult ?? ""}`)], finish: "stop" };
      if (!request.tools.some((t) => t.name === QUESTION_TOOL))
        return { chunks: [...textChunks(ANSWERS.questionGuess)], finish: "stop" };
      return {
        chunks: [{ tool_call: { name: QUESTION_TOOL, arguments: { questions: [QUESTION] } } }],
        finish: "tool_use",
      };
    case "subtask":
      return { chunks: [...textChunks(ANSWERS.subagentReport)], finish: "stop" };
    case "structured":
    case "structuredbad":
      return structuredReply(request, STRUCTURED_ANSWERS[scenario]);
    case "slow":
      return { chunks: [], finish: "stop", slow: true };
    case "toolfail":
      if (request.lastRole === "tool") return { chunks: [...textChunks(ANSWERS.toolfailFinal)], finish: "stop" };
      return { chunks: [{ tool_call: { name: "bash", arguments: { command: FAILING_COMMAND } } }], finish: "tool_use" };
    case "loop":
      // A model that keeps calling tools: LOOP_CALLS calls, then an answer (a backend that reports usage only
      // at its end must reach it for a cost limit to act).
      if (attempt > LOOP_CALLS) return { chunks: [...textChunks(ANSWERS.toolFinal)], finish: "stop" };
      return { chunks: [{ tool_call: listFilesCall(request) }], finish: "tool_use" };
    case "slowtool":
      if (request.lastRole === "tool") return { chunks: [...textChunks(ANSWERS.slowtoolFinal)], finish: "stop" };
      return { chunks: [{ tool_call: { name: "bash", arguments: { command: SLOW_COMMAND } } }], finish: "tool_use" };
    default:
      // Side requests a backend makes on its own (titles, summaries): a short answer.
      return { chunks: [{ content: "ok" }], finish: "stop" };
  }
}

/**
 * The answer in the form the request asks for: a call of Claude Code's StructuredOutput tool where it is
 * offered, after a line of text (its success ends the turn; a failed call is answered again), a fenced json block after a line of
 * text where the prompt asks for one (agentstream's instruction), else the JSON alone (Codex's json_schema format).
 */
function structuredReply(request, answer) {
  if (request.tools.some((t) => t.name === CLAUDE_STRUCTURED_TOOL))
    // Words first, as models often do.
    return {
      chunks: [...textChunks(STRUCTURED_PREAMBLE), { tool_call: { name: CLAUDE_STRUCTURED_TOOL, arguments: answer } }],
      finish: "tool_use",
    };
  if (request.userText.includes("```json"))
    return {
      chunks: [...textChunks(`${STRUCTURED_PREAMBLE}\n\n\`\`\`json\n${JSON.stringify(answer)}\n\`\`\``)],
      finish: "stop",
    };
  return { chunks: [{ content: JSON.stringify(answer) }], finish: "stop" };
}

/** The words before the fenced block of a prompt-path answer. */
export const STRUCTURED_PREAMBLE = "Here is the verdict.";

/** `headers.retryAfterSeconds`, `headers.retryAfterMs`: a Retry-After or Retry-After-Ms header (in the wires that send one). */
function httpError(status, type, message, headers = {}) {
  return { status, error: { type, message, ...headers } };
}

/** A few chunks per text, split on word boundaries, so the stream has real deltas. */
function* textChunks(text, field = "content") {
  const words = text.split(/(?<= )/);
  for (let i = 0; i < words.length; i += 2) yield { [field]: words.slice(i, i + 2).join("") };
}

/** A call that lists the working directory, with whichever tool the backend offers for it. */
function listFilesCall(request) {
  const offered = new Map(request.tools.map((t) => [t.name, t]));
  if (offered.has("ls")) return { name: "ls", arguments: { path: pathRoot(offered.get("ls")) } };
  if (offered.has("bash")) return { name: "bash", arguments: { command: "ls" } };
  if (offered.has("execute")) return { name: "execute", arguments: { command: "ls" } };
  // Gemini CLI's read-only listing tool (its shell tool needs approval headless).
  if (offered.has("list_directory")) return { name: "list_directory", arguments: { dir_path: "." } };
  return { name: "ls", arguments: {} };
}

/** A shell command, with the shell tool the backend offers (Gemini CLI: run_shell_command; EvoScientist: execute; most: bash). */
function shellCall(request, command) {
  const names = new Set(request.tools.map((t) => t.name));
  const name = ["run_shell_command", "execute"].find((n) => names.has(n)) ?? "bash";
  return { name, arguments: { command } };
}

/**
 * A call that hands SUBAGENT_PROMPT to a sub-agent, with the tool the backend
 * offers for it (Claude Code 2.1: Agent, earlier Task), in the foreground where
 * it can run in the background (its result then comes back as the tool result).
 */
function subagentCall(request) {
  const tool = request.tools.find((t) => ["Agent", "Task", "task"].includes(t.name)) ?? { name: "Task" };
  const foreground = tool.parameters?.properties?.run_in_background ? { run_in_background: false } : {};
  return {
    name: tool.name,
    arguments: {
      description: "List the files",
      prompt: SUBAGENT_PROMPT,
      subagent_type: "general-purpose",
      ...foreground,
    },
  };
}

/** pi's `ls` takes a relative path; EvoScientist's takes an absolute one inside its workdir. */
function pathRoot(ls) {
  return /absolute/i.test(JSON.stringify(ls.parameters ?? {})) ? "/" : ".";
}

/** How many tool calls the loop scenario's model makes before it answers. */
export const LOOP_CALLS = 5;

/** The scenario named in the request's user text, or undefined. */
export function scenarioOf(request) {
  return /scenario:([a-z0-9]+)/.exec(request.userText)?.[1];
}
