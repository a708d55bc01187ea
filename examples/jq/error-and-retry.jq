# How the run ended, and whether retrying may help.
# jq -r -f error-and-retry.jq
select(.type == "run.finished")
| if .status == "succeeded" then "succeeded"
  else "\(.status) \(.error.code // "-") retry=\(.error.retryable // false)" end
