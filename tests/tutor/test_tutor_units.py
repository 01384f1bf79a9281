"""Pure units: citation validation (finished and streamed), token budgets, the source viewer's HTML."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agents.llm.memory import budgets_for
from agents.tutor.citations import CitationStream, renumbered, validate
from agents.tutor.sources import Block, SourceView
from tests.tutor.conftest import passage
from ui.source_html import source_html


def test_validate_removes_unknown_markers_and_keeps_order():
    text, used, removed = validate("Thirty days [1]. Invented [7]. Both [2, 7]. Again [1].", {1, 2})
    assert text == "Thirty days [1]. Invented. Both [2]. Again [1]."
    assert used == [1, 2] and removed == [7, 7]


@given(
    st.lists(
        st.sampled_from(
            [
                "The ",
                "period",
                " is",
                " 30 days",
                " [",
                "1",
                "]",
                "[7",
                "]",
                ".",
                " [2, 9]",
                "[Fuente",
                " x]",
                "  ",
                "\n",
            ]
        ),
        max_size=30,
    )
)
def test_streamed_cleaning_equals_finished_cleaning(tokens):
    stream = CitationStream({1, 2})
    streamed = "".join(stream.feed(token) for token in tokens) + stream.flush()
    order: list[int] = []
    assert streamed == validate("".join(tokens), {1, 2}, order)[0]
    assert stream.order == order


def test_sources_are_numbered_in_order_of_first_appearance():
    order: list[int] = []
    text, used, _ = validate("Opened laptops: 14 days [3]. Refunds over 500 EUR [1][3]. Nothing [9].", {1, 2, 3}, order)
    assert text == "Opened laptops: 14 days [1]. Refunds over 500 EUR [2][1]. Nothing."
    assert order == used == [3, 1]
    passages = renumbered({n: passage(n, f"passage {n}") for n in (1, 2, 3)}, order)
    assert [(n, p.text) for n, p in passages.items()] == [(1, "passage 3"), (2, "passage 1"), (3, "passage 2")]
    assert all(p.index == n for n, p in passages.items())


def test_budgets_scale_with_the_model():
    small = budgets_for("offline")
    big = budgets_for("openai:gpt-4o-mini")
    assert small["retrieved_context"] == 3000 and small["history"] == 2000
    assert big["retrieved_context"] == 24000 and big["history"] == 16000 and big["generation_reserve"] == 4000
    assert budgets_for("openai:some-local-model") == small


def test_the_viewer_draws_a_passages_markdown_and_keeps_it_data():
    view = SourceView(
        "manual",
        "Manual",
        blocks=[
            Block(
                "**Impacto en la Comunidad**: uso de lenguaje *inapropiado*.\n\n- uno\n- dos", "2. Aviso", cited=True
            ),
            Block("<script>alert(1)</script> [aquí](javascript:alert(1)) y [guía](https://example.org/g)", "3."),
        ],
    )
    html = source_html(view, "es")
    assert "**" not in html and "<strong>Impacto en la Comunidad</strong>" in html and "<em>inapropiado</em>" in html
    assert "<li>uno</li>" in html and 'id="sv-cited"' in html and 'class="sv-block cited"' in html
    assert "<script>alert" not in html and "&lt;script&gt;" in html and 'href="javascript' not in html
    assert '<a href="https://example.org/g"' in html


def test_the_answer_badge_names_the_engine_in_the_readers_language():
    from ui.chat_render import badge_html

    assert "⚙ sin modelo" in badge_html("chunks", "semantic", "offline", "es")
    assert "⚙ offline" in badge_html("chunks", "semantic", "offline", "en")
    assert "⚙ openai:gpt-4o-mini" in badge_html("chunks", "semantic", "openai:gpt-4o-mini", "es")  # a model's own name


def test_the_viewer_runs_no_script_and_folds_what_precedes_the_cited_passage():
    blocks = [Block(f"Paso {n}.", f"{n}.") for n in range(1, 5)] + [
        Block("El hotel: 120 € por noche.", "5.", cited=True)
    ]
    html = source_html(SourceView("document", "Viajes", blocks=blocks), "es")
    assert "<script" not in html
    folded, shown = html.split("</details>")
    assert "Antes en el documento (4 pasajes)" in folded and "Paso 4." in folded and 'id="sv-cited"' in shown
    near = source_html(SourceView("document", "Viajes", blocks=blocks[3:]), "en")
    assert "<details" not in near and "<script" not in near
