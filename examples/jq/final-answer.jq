# The final answer of the run (nothing when there is none).
# jq -r -f final-answer.jq
select(.type == "run.finished") | .result.text // empty
