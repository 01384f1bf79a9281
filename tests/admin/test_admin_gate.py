"""The admin assistant's output gate through the fake server: a model that answers in prose, calls a
tool with arguments its schema refuses, or invents people and figures is overruled by the twin."""

from __future__ import annotations

from agents.admin.gate import invalid_arguments, plan_disagreement, ungrounded_mentions
from agents.admin.tools import TOOLS_BY_NAME


def test_prose_instead_of_a_tool_call_runs_the_twins_plan(fake_openai, turn):
    fake_openai.prose_instead_of_tool("The AI assistant.")
    fake_openai.reply("Javier Torres knows forklift operation at a high level.")
    reply = turn("Who knows forklift?")
    assert [c["tool"] for c in reply.tool_calls] == ["who_knows"] and reply.fallback == "no_tool_call"
    assert "Javier Torres" in {r["full_name"] for r in reply.tool_calls[0]["result"]["rows"]}
    assert reply.response == "Javier Torres knows forklift operation at a high level."  # the model phrased it
    assert reply.engine.startswith("openai:")


def test_invented_people_and_figures_get_the_templated_reply(fake_openai, turn):
    fake_openai.tool_call("who_knows", {"skill_name": "forklift", "min_level": "high"})
    fake_openai.reply("There are 14 forklift experts, led by John Smith.")
    reply = turn("Who knows forklift?")
    assert reply.fallback == "ungrounded" and reply.engine == "offline"
    assert "John Smith" not in reply.response and "Javier Torres" in reply.response  # built from the rows


def test_schema_refused_arguments_are_overruled_by_the_twin(fake_openai, turn):
    fake_openai.tool_call("who_knows", {"skill_name": "forklift", "min_level": "guru"}).reply("Javier Torres.")
    reply = turn("who knows forklift?")
    call = reply.tool_calls[0]
    assert reply.fallback == "invalid_args" and call["tool"] == "who_knows" and "error" not in call["result"]


def test_a_model_without_tool_calling_plans_with_the_twin_and_phrases(fake_openai, turn):
    fake_openai.capabilities["tool_calling"] = False
    fake_openai.reply("These are the current alerts.")
    reply = turn("alertas")
    assert [c["tool"] for c in reply.tool_calls] == ["get_alerts"] and reply.fallback == "no_tool_calling"
    assert all(not r.get("tools") for r in fake_openai.chat_requests)  # no tool request was ever sent


def test_a_slow_model_phrases_the_twins_summary_not_the_raw_results(fake_openai, turn):
    fake_openai.capabilities.update(tool_calling=False, probe_token_delay=0.08)  # the probe measures ~12 tokens/s
    fake_openai.reply("These are the skill levels of the team.")
    reply = turn("Show me the skills matrix")
    prompt = fake_openai.chat_requests[-1]["messages"][-1]["content"]
    assert [c["tool"] for c in reply.tool_calls] == ["get_skills_matrix"]
    assert '"rows"' not in prompt and len(prompt) < 2000  # the JSON of the whole matrix is ~12,000 characters
    assert reply.response == "These are the skill levels of the team." and reply.engine.startswith("openai:")


def test_a_phrasing_past_the_answer_deadline_gets_the_templated_reply(fake_openai, turn, monkeypatch):
    monkeypatch.setenv("LLM_ANSWER_SECONDS", "1")
    fake_openai.capabilities["tool_calling"] = False
    fake_openai.slow_tokens("These are the current alerts and more words than a second allows.", 4)
    reply = turn("alertas")
    assert reply.fallback == "timeout" and reply.engine == "offline"
    assert "more words than a second allows" not in reply.response and reply.response


def test_gate_units():
    schema = TOOLS_BY_NAME["who_knows"].parameters
    assert invalid_arguments(schema, {"skill_name": "Excel"}) is None
    assert "required" in invalid_arguments(schema, {"min_level": "high"})
    assert "guru" in invalid_arguments(schema, {"skill_name": "Excel", "min_level": "guru"})
    results = [{"tool": "who_knows", "result": {"rows": [{"full_name": "Javier Torres", "score": 0.75}]}}]
    assert ungrounded_mentions("Javier Torres scores 75%. One person.", results, "who knows?") == []
    assert ungrounded_mentions("Ask Maria Lopez, 3 people know it.", results, "who knows?") == ["3", "Maria", "Lopez"]
    mentors = [
        {
            "tool": "suggest_mentors",
            "result": {
                "rows": [{"full_name": n} for n in ("Ana Ruiz", "Tom Baker", "Priya Shah", "Ryan Lee", "Carmen Vidal")]
            },
        }
    ]
    listed = "Mentors:\n1. Ana Ruiz\n2. Tom Baker\n3) Priya Shah\n4. Ryan Lee\n5. Carmen Vidal"
    assert ungrounded_mentions(listed, mentors, "Suggest mentors") == []  # list numbers are not claims
    assert ungrounded_mentions(listed + "\n6. John Smith, 12 years", mentors, "Suggest mentors") == ["12", "Smith"]


def test_a_write_read_as_a_lookup_is_overruled_and_the_preview_made(fake_openai, turn):
    """Issue 32: "Enrol…" (British spelling) planned as "show Tom Baker" reached no preview."""
    fake_openai.tool_call("get_employee_detail", {"employee_name": "Grace O'Neill"})
    reply = turn("Enrol Grace O'Neill in Warehouse Safety")
    assert reply.fallback == "wrong_tool" and reply.engine == "offline"
    assert reply.pending["tool"] == "assign_course" and "Grace O'Neill" in reply.pending["preview"]
    turn(session=reply.session, cancel=True)


def test_a_dropped_deadline_is_overruled_and_the_preview_shows_it(fake_openai, turn):
    fake_openai.tool_call("assign_course", {"course_title": "Warehouse Safety", "employee_names": ["Grace O'Neill"]})
    reply = turn("Assign Warehouse Safety to Grace O'Neill by the end of the month")
    assert reply.fallback == "dropped_argument" and reply.pending["arguments"]["deadline"]
    assert "no deadline" not in reply.pending["preview"]
    turn(session=reply.session, cancel=True)


def test_a_plan_that_keeps_every_value_stands(fake_openai, turn):
    fake_openai.tool_call("verify_skill", {"employee_name": "Tom", "skill_name": "forklift operation", "level": "high"})
    fake_openai.reply("Ready to set Tom Baker's forklift operation to high.")
    reply = turn("Mark Tom as high in forklift operation")
    assert (
        reply.fallback is None and reply.engine.startswith("openai:") and reply.pending["arguments"]["level"] == "high"
    )
    turn(session=reply.session, cancel=True)


def test_the_plan_check_judges_writes_only():
    assign = {
        "tool": "assign_course",
        "arguments": {"course_title": "X", "employee_names": ["Tom"], "deadline": "2027-01-01"},
    }
    assert (
        plan_disagreement([{"tool": "who_knows", "arguments": {}}], [{"tool": "get_alerts", "arguments": {}}]) is None
    )
    assert plan_disagreement([{"tool": "get_employee_detail", "arguments": {}}], [assign]) == "wrong_tool"
    assert plan_disagreement([assign], []) is None  # the twin had no plan: nothing to judge by
    dropped = {"tool": "assign_course", "arguments": {"course_title": "X", "employee_names": ["Tom"]}}
    assert plan_disagreement([dropped], [assign]) == "dropped_argument"
    assert plan_disagreement([assign], [assign]) is None
