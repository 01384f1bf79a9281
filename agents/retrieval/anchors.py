"""The eval's anchors: exact in-memory rankings over the same chunks the served search sees.

Dense cosine (the stored passage vectors against the same query vector), BM25 (Okapi, k1 1.2, b 0.75,
over heading + content, lower-cased word tokens, no stemming: the plain textbook baseline) and
reciprocal-rank fusion of the two (k 60). Every served figure is reported next to these, measured in
the same run, so a change is judged by its ratio to them rather than by an absolute number.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np

from storage.corpus import EvalChunk

ANCHORS = ("dense", "bm25", "rrf")
BM25_K1 = 1.2
BM25_B = 0.75
RRF_K = 60
_WORD = re.compile(r"\w+", re.UNICODE)


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class Anchors:
    """Built once per eval run from the organisation's chunks."""

    def __init__(self, chunks: list[EvalChunk]):
        self.titles = [chunk.document_title for chunk in chunks]
        self.matrix = np.vstack([np.asarray(chunk.embedding, dtype=np.float32) for chunk in chunks])
        self.term_counts = [Counter(tokens(f"{chunk.heading}\n{chunk.content}")) for chunk in chunks]
        self.lengths = np.array([sum(counts.values()) for counts in self.term_counts], dtype=np.float64)
        self.average_length = float(self.lengths.mean()) if len(chunks) else 1.0
        document_frequency = Counter(term for counts in self.term_counts for term in counts)
        n = len(chunks)
        self.idf = {term: math.log(1 + (n - df + 0.5) / (df + 0.5)) for term, df in document_frequency.items()}

    def dense(self, query_vector: np.ndarray) -> np.ndarray:
        return self.matrix @ np.asarray(query_vector, dtype=np.float32)

    def bm25(self, query: str) -> np.ndarray:
        scores = np.zeros(len(self.titles))
        norm = BM25_K1 * (1 - BM25_B + BM25_B * self.lengths / self.average_length)
        for term in set(tokens(query)):
            idf = self.idf.get(term)
            if idf is None:
                continue
            tf = np.array([counts.get(term, 0) for counts in self.term_counts], dtype=np.float64)
            scores += idf * tf * (BM25_K1 + 1) / (tf + norm)
        return scores

    def ranked_titles(self, anchor: str, query: str, query_vector: np.ndarray, k: int) -> list[str]:
        """The document titles of the top ``k`` chunks under ``anchor``."""
        order: np.ndarray | list[int]
        if anchor == "dense":
            order = np.argsort(-self.dense(query_vector), kind="stable")
        elif anchor == "bm25":
            scores = self.bm25(query)
            order = [i for i in np.argsort(-scores, kind="stable") if scores[i] > 0]
        else:
            order = self._rrf(query, query_vector)
        return [self.titles[i] for i in order[:k]]

    def _rrf(self, query: str, query_vector: np.ndarray) -> list[int]:
        fused = np.zeros(len(self.titles))
        dense_order = np.argsort(-self.dense(query_vector), kind="stable")
        fused[dense_order] += 1.0 / (RRF_K + np.arange(1, len(dense_order) + 1))
        lexical = self.bm25(query)
        lexical_order = [i for i in np.argsort(-lexical, kind="stable") if lexical[i] > 0]
        fused[lexical_order] += 1.0 / (RRF_K + np.arange(1, len(lexical_order) + 1))
        return list(np.argsort(-fused, kind="stable"))
