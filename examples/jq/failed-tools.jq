# Each tool call that failed: its name, id and output.
# jq -c -f failed-tools.jq
select(.type == "tool.completed" and .status == "failed") | {name, tool_call_id, output}
