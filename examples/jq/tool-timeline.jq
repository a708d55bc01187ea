# A timeline of tool calls: when each ended, its name, status and duration.
# The duration is the backend's, else the time between start and end as seen in the stream.
# jq -rn -f tool-timeline.jq
foreach inputs as $e ({};
  if $e.type == "tool.started" then .[$e.tool_call_id] = $e.elapsed_ms else . end;
  if $e.type == "tool.completed" then
    "\($e.elapsed_ms)ms\t\($e.name)\t\($e.status)\t\($e.duration_ms // ($e.elapsed_ms - .[$e.tool_call_id]))ms"
  else empty end)
