#!/usr/bin/env bash
# Run one prompt through an agent in any CI job: the canonical log goes to a
# file, a retryable failure (exit 75: rate limit, overload, network, 5xx) is
# retried after a pause, a Markdown report of the run is written beside the log
# (and, in GitHub Actions, appended to the job summary), the final answer is
# printed on stdout, and the script exits with agentstream's exit code (0 only
# when the run succeeded).
#
#   examples/ci/run-agent.sh "Summarize data/results.csv into notes.md" --timeout 1800
#
# Arguments after the prompt go to `agentstream run`. Settings, from the environment:
#   AGENT_BACKEND      evosci, atomic, pi, gemini, codex, claude, opencode, copilot, qwen or acp  (default: evosci)
#   AGENT_LOG          the canonical log of the last attempt; earlier attempts are
#                      kept beside it as NAME.attempt-N.jsonl        (default: agentstream.jsonl)
#   AGENT_REPORT       the report of the last attempt (.md, .json or .html); earlier
#                      ones are kept as NAME.attempt-N.EXT           (default: agentstream-report.md)
#   AGENT_ATTEMPTS     attempts in all                               (default: 3)
#   AGENT_RETRY_DELAY  seconds to wait before each retry             (default: 60)
#   AGENTSTREAM        the agentstream command    (default: node_modules/.bin/agentstream if the
#                      project has it installed, else agentstream on PATH)
# Needs bash, jq, Node.js 20.6 or later, and agentstream installed: it is not on the
# npm registry, so install it from its repository or a tarball (see the README's
# Quick start), never with `npx --yes agentstream`, which would run whatever someone
# else publishes under that name.
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 PROMPT [agentstream run options...]" >&2
  exit 2
fi
prompt=$1
shift

backend=${AGENT_BACKEND:-evosci}
log=${AGENT_LOG:-agentstream.jsonl}
report=${AGENT_REPORT:-agentstream-report.md}
attempts=${AGENT_ATTEMPTS:-3}
retry_delay=${AGENT_RETRY_DELAY:-60}
if [[ -n ${AGENTSTREAM:-} ]]; then
  read -r -a agentstream <<<"$AGENTSTREAM"
elif [[ -x node_modules/.bin/agentstream ]]; then
  agentstream=(node_modules/.bin/agentstream)
elif command -v agentstream >/dev/null; then
  agentstream=(agentstream)
else
  echo "run-agent: agentstream is not installed here: npm install /path/to/agentstream-VERSION.tgz (made by npm pack in its repository), or set AGENTSTREAM" >&2
  exit 127
fi

# In GitHub Actions each attempt's report is also appended to the job summary.
summary=()
if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  summary=(--summary)
fi

for ((attempt = 1; ; attempt++)); do
  status=0
  "${agentstream[@]}" run --backend "$backend" --report "$report" ${summary[@]+"${summary[@]}"} "$@" -- "$prompt" >"$log" || status=$?
  if [[ $status -ne 75 || $attempt -ge $attempts ]]; then
    break
  fi
  mv "$log" "${log%.jsonl}.attempt-$attempt.jsonl"
  mv "$report" "${report%.*}.attempt-$attempt.${report##*.}"
  echo "run-agent: attempt $attempt of $attempts failed with a retryable error (exit 75); retrying in ${retry_delay}s" >&2
  sleep "$retry_delay"
done

if [[ $status -eq 0 ]]; then
  jq -r 'select(.type == "run.finished") | .result.text // empty' "$log"
else
  jq -r 'select(.type == "run.finished") | "run-agent: \(.status) (\(.error.code // "no error code")): \(.error.message // "")"' "$log" >&2
fi
exit "$status"
