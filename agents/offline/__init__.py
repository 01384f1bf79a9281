"""The offline engine's toolkit, shared by every agent's deterministic twin.

Real logic over the user's words and the retrieved text — sentence splitting, extractive answers
with citation markers, exemplar matching by embedding, language detection, localized templates —
streamed word by word so the UI path is the same as a model's. One module per concern; the names
callers use are re-exported here.
"""

from agents.offline.exemplars import closest_labels, match_exemplars
from agents.offline.extractive import cite_chosen, extractive_answer, sentence_vectors
from agents.offline.language import detect_language, message_language
from agents.offline.phrasing import localized, stream_words
from agents.offline.sentences import (
    answer_candidates,
    enclosing_list,
    item_lead_ins,
    split_sentences,
    without_list_marker,
)

__all__ = [
    "answer_candidates",
    "cite_chosen",
    "closest_labels",
    "detect_language",
    "enclosing_list",
    "extractive_answer",
    "item_lead_ins",
    "localized",
    "match_exemplars",
    "message_language",
    "sentence_vectors",
    "split_sentences",
    "without_list_marker",
    "stream_words",
]
