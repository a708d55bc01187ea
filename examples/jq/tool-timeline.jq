# A timeline of tool calls: when each ended (UTC), its name, status and duration.
# Times are the backend's own (native_ts) where the event states one, else agentstream's (ts).
# The duration is the backend's (duration_ms), else the time between start and end in the
# backend's own times, else (a live run only) by agentstream's clock; "-" when unknown:
# a recording replayed by normalize has no timing of its own there.
# jq -rn -f tool-timeline.jq
def ms: (.[0:19] + "Z" | fromdateiso8601) * 1000 + (.[20:23] | tonumber);
foreach inputs as $e ({};
  if $e.type == "run.started" then {mode: $e.mode, started: {}}
  elif $e.type == "tool.started" then .started[$e.tool_call_id] = $e
  else . end;
  if $e.type == "tool.completed" then
    .started[$e.tool_call_id] as $s
    | (if $e.duration_ms != null then $e.duration_ms
       elif $e.native_ts and $s.native_ts then ($e.native_ts | ms) - ($s.native_ts | ms)
       elif .mode == "run" and $s then $e.elapsed_ms - $s.elapsed_ms
       else null end) as $d
    | "\(($e.native_ts // $e.ts)[11:23])\t\($e.name)\t\($e.status)\t\(if $d == null then "-" else "\($d)ms" end)"
  else empty end)
