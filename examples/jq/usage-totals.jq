# Token and cost totals of the run; "complete": false where the backend leaves
# some model calls out of its reports (EvoScientist: the main agent only).
# jq -c -f usage-totals.jq
select(.type == "run.finished") | .usage // {}
| {input_tokens, output_tokens, cost_usd, complete: (.complete != false)}
| with_entries(select(.value != null))
