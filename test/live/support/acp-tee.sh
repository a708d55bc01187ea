#!/bin/bash
# The ACP live suite's capture (acp-captures.ts): runs the agent, its stdout copied as written to a file on
# its way to agentstream. The agent's exit status is the script's (pipefail).
set -o pipefail
"$AGENTSTREAM_TEE_AGENT" "$@" | tee "$AGENTSTREAM_TEE_TO"
