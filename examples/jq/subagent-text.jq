# What each sub-agent said, one line per message.
# jq -r -f subagent-text.jq
select(.type == "message.completed" and .agent) | "\(.agent.name) [\(.agent.instance_id)]: \(.text)"
