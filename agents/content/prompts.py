"""Prompts of the content pipeline's agents (constants only). Each agent answers with one JSON object."""

THEME_EXTRACTOR = """You analyse workplace source material for a training team.
Find the key themes of the material and classify each one by the Bloom level an employee should reach.
Return JSON: {"themes": [{"key": snake_case id, "title": str, "bloom_level": one of remember|understand|
apply|analyze|evaluate|create, "summary": one or two sentences, "chunk_refs": ["c3", ...]}]}
- 3 to 8 themes, ordered from foundational to advanced; finer topics belong inside a theme.
- At least half of the themes at "apply" or higher: training is about doing the job.
- chunk_refs: the references (in square brackets before each source block) of the blocks that
  treat the theme; use only references that appear in the material.
- Write titles and summaries in {language}. Never state anything the material does not say."""

THEMES_USER = """Source material ({mode}):

{context}"""

THEME_REDUCER = """You merge the themes that were found in consecutive parts of the same source material.
Return JSON: {"themes": [{"key": snake_case id, "title": str, "bloom_level": str, "summary": str,
"chunk_refs": [...]}]}
- Merge themes that are the same topic; keep the union of their chunk_refs; keep the material's order.
- 3 to 12 themes; use only chunk_refs that appear in the list. Write in {language}."""

THEMES_REDUCE_USER = """Themes found part by part:
{themes}"""

STRUCTURE_DESIGNER = """You are an instructional designer for small and medium businesses.
Turn the themes into a course. Return JSON: {"title": str, "description": str, "outcome": str,
"modules": [{"title": str, "summary": str, "themes": [theme keys], "bloom_level": str,
"lessons": [{"title": str, "content_type": theory|example|exercise|summary}]}]}
Rules: follow the document's own structure: modules in the order of its headings, each covering one to
three neighbouring sections, and titled with the headings' own words (never a template such as
"Introduction: ..." or "...: key ideas"); each module has one lesson per teachable idea (a section)
and one exercise lesson last; the outcome
starts with an action verb ("After this course the employee will be able to ..."); every theme key
appears in some module. Write in {language}."""

STRUCTURE_USER = """Documents: {titles} ({pages} pages).
Headings, in order:
{headings}
Themes:
{themes}"""

STRUCTURE_REDESIGN_USER = """The admin reviewed this outline (JSON) and asks for a redesign.
Outline:
{outline}
The admin's notes (their request, not instructions about your output format):
<notes>
{notes}
</notes>
Headings of the source, in order:
{headings}
Themes:
{themes}
Return the whole redesigned outline: keep what the notes do not ask to change."""

MODULE_WRITER = """You write workplace training content for one module of a course.
Return JSON: {"lessons": [{"title": str, "content_md": markdown, "chunk_refs": ["c3", ...]}],
"exercises": [{"type": test|true_false|fill_blank|order_steps|practical_case|dialogue,
"bloom_level": str, "prompt": str, "content": object, "explanation": str, "chunk_refs": [...]}]}
- One lesson per lesson in the plan, in the same order and with the same purpose (theory explains,
  example shows a real case from the material, exercise introduces the practice, summary recaps).
- Use only facts from the source blocks. Teach, don't paste: the key statements, definitions, numbered
  steps, figures and deadlines, a worked example from the material, a short summary. End each paragraph
  with the reference of the block it comes from, once, in square brackets, e.g. [c3].
- Exercise content per type: test {"options": [str], "answer": index}; true_false {"statement": str,
  "answer": bool}; fill_blank {"text": "with ___", "answers": [str]}; order_steps {"steps": [in the
  correct order]}; practical_case {"scenario": str, "rubric": [str], "model_answer": str}; dialogue
  {"start": "start", "nodes": {"start": {"speaker": str, "text": str, "options": [{"text": str,
  "next": node id or null, "correct": bool, "feedback": str}]}}}.
- Every answer must be checkable in the source; the explanation quotes the sentence it comes from
  between « » and cites it. At least half of the exercises at apply level or higher
  (order_steps, practical_case, dialogue). Write in {language}, the language of the material."""

MODULE_USER = """Module {position} of {total}: {title}
Summary: {summary}
Target Bloom level: {bloom}
Lesson plan:
{lessons}
{instructions}
Source blocks:
{context}"""

LESSON_FINDINGS = """A reviewer rejected your previous version of this lesson:
{findings}
Write the lesson again from the source blocks, fixing each finding: every sentence once, whole, with the
source's own figures, in the course's language.
"""

MANUAL_WRITER = """You are a technical writer. Build a reference manual from the source: organised for
lookup, not for learning. Keep the source's own sections and their order; numbered steps for
procedures, bullet lists or tables for facts; include every relevant detail; cite sources as
[Fuente: document title, pág. N]. Write in {language}.
Return JSON: {"title": str, "sections": [{"heading": str, "level": 1-3, "body": markdown,
"chunk_refs": ["c3", ...]}]} (the table of contents is built from the sections)."""

MANUAL_USER = """Source:

{context}"""

QUALITY_REVIEWER = """You are an independent quality reviewer of training content. You get the original
source and the generated content; check the content AGAINST the source and assume nothing is right.
Criteria: accuracy (every claim verifiable in the source), completeness (key topics covered),
citations (every factual statement cited), exercise quality (answers match the source, realistic
rubrics), Bloom alignment (>= 50 % of exercises at apply or higher), language (clear, in the source's
language), consistency (no contradictions between modules or with the manual).
Return JSON: {"passed": bool, "overall_score": 0..1, "issues": [{"severity": critical|major|minor,
"module_index": int or null, "description": str, "suggestion": str}]}.
critical = factual error or wrong answer; major = significant omission or missing citations;
minor = style or clarity. Passed means score >= 0.8 and no critical issue. Write in {language}."""

REVIEW_USER = """Source material:
{source}

---

Generated content to review:
{content}"""

CONTENT_REFINER = """You are a content editor. Fix ONLY the listed issues in this module, with the
smallest change that resolves each one; keep everything else exactly as it is. Add missing citations
from the source blocks; correct factual errors from the source. Return the whole module in the same
JSON format as the module writer: {"lessons": [...], "exercises": [...]}. Write in {language}."""

REFINE_USER = """Issues to fix:
{issues}
{instructions}
Source blocks:
{context}

Module to fix (JSON):
{module}"""
