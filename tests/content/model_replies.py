"""A scripted author for the fake OpenAI server: schema-valid answers for each content agent, built
from the prompt it receives (used by the model-path tests and the benchmark)."""

from __future__ import annotations

import json
import re

from tests.fake_openai import Reply, last_user_text

MODEL_HEADING = "### Lección del modelo"  # how a test tells the model's lesson from the twin's


def _system(request: dict) -> str:
    return next((m.get("content") or "" for m in request["messages"] if m["role"] == "system"), "")


def scripted_author(*, delay: float = 0.0, themes: int = 4, broken_modules: tuple[str, ...] = ()):
    """A responder; modules whose title is in ``broken_modules`` get exercises that break the contract."""

    def respond(request: dict) -> Reply:
        system, user = _system(request), last_user_text(request)
        blocks = re.findall(r"^\[(c\d+)\] [^\n]*\n([^\n]+)", user, re.M)
        sentences = [s.strip() for _, body in blocks for s in re.split(r"(?<=\.)\s+", body) if len(s.strip()) > 30]
        first = blocks[0][0] if blocks else "c1"
        if "key themes" in system:
            refs = [ref for ref, _ in blocks]
            per = max(1, len(refs) // themes)
            value = {
                "themes": [
                    {
                        "key": f"theme_{i}",
                        "title": f"Tema {i + 1}",
                        "bloom_level": "apply",
                        "summary": sentences[i % len(sentences)] if sentences else "-",
                        "chunk_refs": refs[i * per : (i + 1) * per],
                    }
                    for i in range(themes)
                ]
            }
        elif "instructional designer" in system:
            keys = re.findall(r"^- (\w+):", user, re.M)
            value = {
                "title": "Curso escrito por el modelo",
                "description": "-",
                "outcome": "Aplicar el manual",
                "modules": [
                    {
                        "title": f"Módulo {i + 1}",
                        "summary": "-",
                        "themes": [key],
                        "bloom_level": "apply",
                        "lessons": [
                            {"title": "Teoría", "content_type": "theory"},
                            {"title": "Ejemplo", "content_type": "example"},
                            {"title": "Práctica", "content_type": "exercise"},
                        ],
                    }
                    for i, key in enumerate(keys)
                ],
            }
        elif "training content for one module" in system or "content editor" in system:
            plan = re.findall(r"^\d+\. \[(\w+)\] (.+)$", user, re.M)
            title = re.search(r"^Module \d+ of \d+: (.+)$", user, re.M)
            broken = bool(title) and title.group(1) in broken_modules
            fact = sentences[0] if sentences else "-"
            value = {
                "lessons": [
                    {
                        "title": name,
                        "content_md": f"{MODEL_HEADING}\n\n{fact} [Fuente: manual, sección, pág. 1]",
                        "chunk_refs": [first],
                    }
                    for _, name in plan
                ],
                "exercises": [
                    {
                        "type": "true_false",
                        "bloom_level": "remember",
                        "prompt": "¿Verdadero o falso?",
                        "content": {"statement": fact} if broken else {"statement": fact, "answer": True},
                        "explanation": f"«{fact}»",
                        "chunk_refs": [first],
                    },
                    {
                        "type": "order_steps",
                        "bloom_level": "apply",
                        "prompt": "Ordena los pasos",
                        "content": {"steps": []} if broken else {"steps": sentences[:3] or ["a", "b"]},
                        "explanation": "-",
                        "chunk_refs": [first],
                    },
                ],
            }
        elif "technical writer" in system:
            value = {
                "title": "Manual del modelo",
                "sections": [
                    {"heading": f"Sección {i + 1}", "level": 1, "body": body, "chunk_refs": [ref]}
                    for i, (ref, body) in enumerate(blocks)
                ],
            }
        else:
            value = {"passed": True, "overall_score": 0.9, "issues": []}
        return Reply(text=json.dumps(value, ensure_ascii=False), delay=delay)

    return respond
