"""Check ATIF documents with others' code: the `atif` package's pydantic models in strict mode (unknown
fields and coerced values refused), plus what no validator checks (every subagent_trajectory_ref names an
embedded sub-trajectory), what other readers refuse (atif-scan and agentpile: one call id twice in a step;
Docent: no session_id) and every call of a step answered on it where its result came. Prints one JSON object: {"files": N, "problems": [...]}. Used by
test/helpers/atif-python.ts."""
import json
import sys

from atif import Trajectory


def readers_read(doc, where, problems):
    if not isinstance(doc.get("session_id"), str):
        problems.append(f"{where}: no session_id (Docent refuses it)")
    for step in doc["steps"]:
        ids = [call["tool_call_id"] for call in step.get("tool_calls") or []]
        if len(set(ids)) != len(ids):
            problems.append(f"{where}: step {step['step_id']}: a call id twice in one step {ids}")
        answered = [r["source_call_id"] for r in (step.get("observation") or {}).get("results", []) if "source_call_id" in r]
        if len(set(answered)) != len(answered):
            problems.append(f"{where}: step {step['step_id']}: two results for one call {answered}")
    for sub in doc.get("subagent_trajectories") or []:
        readers_read(sub, f"{where} > {sub['trajectory_id']}", problems)


def refs_resolve(doc, where, problems):
    ids = {sub["trajectory_id"] for sub in doc.get("subagent_trajectories") or []}
    for step in doc["steps"]:
        for result in (step.get("observation") or {}).get("results", []):
            for ref in result.get("subagent_trajectory_ref") or []:
                if ref.get("trajectory_id") not in ids:
                    problems.append(f"{where}: step {step['step_id']}: ref {ref} names no embedded sub-trajectory")
    for sub in doc.get("subagent_trajectories") or []:
        refs_resolve(sub, f"{where} > {sub['trajectory_id']}", problems)


problems = []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    try:
        Trajectory.model_validate(doc, strict=True)
    except Exception as err:  # pydantic.ValidationError: every error, one line each
        problems.append(f"{path}: {err}")
        continue
    if not doc["steps"]:
        problems.append(f"{path}: no steps (Harbor refuses an empty steps list)")
    refs_resolve(doc, path, problems)
    readers_read(doc, path, problems)
print(json.dumps({"files": len(sys.argv) - 1, "problems": problems}))
