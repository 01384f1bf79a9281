"""Retrieval: hybrid search, course-tree (PageIndex) selection, the grounding ladder and its eval.

from agents.runtime.deps import process_deps
from agents.retrieval import search, Scope
deps = process_deps()
hits = search("acme", "¿Cuántos días tengo para devolver un producto?", k=5, pool=deps.pool, embedder=deps)
"""

from agents.retrieval.grounding import Grounding, ground
from agents.retrieval.passages import Passage
from agents.retrieval.search import Hit, RetrievalError, Scope, search

__all__ = ["Grounding", "Hit", "Passage", "RetrievalError", "Scope", "ground", "search"]
