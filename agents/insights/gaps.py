"""Knowledge gaps: the tutor questions no company document answers, grouped by meaning.

Questions that fell to the general rung or were low-confidence (``storage.gaps``) are embedded as
queries and clustered with scikit-learn's agglomerative clustering (average linkage, cosine); the
number of clusters is the one with the best silhouette. Each language's vectors are centred on
their own mean first: multilingual-e5 places every Spanish question nearer every other Spanish
question than its English twin, and removing that shared language direction lets a topic asked in
both languages fall into one cluster.

Privacy: only aggregates leave this module. A cluster shows its questions, its name (terms taken
from them) and its departments only when at least ``MIN_ASKERS`` different people asked; never who.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from uuid import UUID

import numpy as np
from sklearn.cluster import AgglomerativeClustering
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, CountVectorizer
from sklearn.metrics import silhouette_score

from agents.i18n import t
from agents.runtime.deps import AppDeps
from storage import audit, gaps, users

MIN_ASKERS = 3  # k-anonymity: fewer askers and the cluster shows counts only
MAX_CLUSTERS = 12
MIN_SILHOUETTE = 0.1  # below this, splitting is no better than one group
MIN_LANGUAGE_GROUP = 3  # fewer questions in a language: centre them on the overall mean
TOPIC_TERMS = 3
TERM_SHARED_BONUS = 0.02
_SPANISH_STOP_WORDS = {  # written without accents: the vectorizer strips them before matching
    "como",
    "cual",
    "cuales",
    "cuando",
    "cuanto",
    "cuanta",
    "cuantos",
    "cuantas",
    "donde",
    "esta",
    "este",
    "esto",
    "estos",
    "estas",
    "para",
    "pero",
    "porque",
    "puedo",
    "puede",
    "pueden",
    "quien",
    "sobre",
    "tengo",
    "tiene",
    "tienen",
    "todo",
    "todos",
    "unos",
    "unas",
    "hace",
    "hacer",
    "desde",
    "hasta",
    "entre",
    "algo",
    "alguna",
    "alguno",
    "mucho",
    "muchos",
    "nuestra",
    "nuestro",
    "nuestros",
    "segun",
    "tambien",
    "cada",
    "debo",
    "solicito",
    "pedir",
    "empresa",
    "company",
}
_STOP_WORDS = sorted(set(ENGLISH_STOP_WORDS) | _SPANISH_STOP_WORDS)


@dataclass
class GapCluster:
    key: str  # stable within one analysis (for buttons)
    topic: str  # its most telling terms; "" when too few people asked
    questions: int
    askers: int
    visible: bool  # askers >= MIN_ASKERS: text, name and departments may be shown
    languages: dict[str, int]
    departments: dict[str, int]
    examples: list[str]
    documents: list[dict] = field(default_factory=list)  # [{document_id, title, similarity}]

    def as_json(self) -> dict:
        return asdict(self)


def _centred(vectors: np.ndarray, languages: list[str]) -> np.ndarray:
    out = vectors - vectors.mean(axis=0)
    codes = np.array(languages)
    for language in set(languages):
        members = codes == language
        if members.sum() >= MIN_LANGUAGE_GROUP:
            out[members] = vectors[members] - vectors[members].mean(axis=0)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.where(norms == 0, 1, norms)


def cluster_labels(vectors: np.ndarray, languages: list[str]) -> np.ndarray:
    """A cluster number per question (0 = the largest cluster)."""
    n = len(vectors)
    if n < 4:
        return np.zeros(n, dtype=int)
    points = _centred(vectors, languages)
    best, best_score = np.zeros(n, dtype=int), MIN_SILHOUETTE
    for k in range(2, min(n - 1, MAX_CLUSTERS) + 1):
        labels = AgglomerativeClustering(n_clusters=k, metric="cosine", linkage="average").fit_predict(points)
        score = silhouette_score(points, labels, metric="cosine")
        if score > best_score:
            best, best_score = labels, score
    sizes = np.bincount(best)
    order = {old: new for new, old in enumerate(sorted(range(len(sizes)), key=lambda c: -sizes[c]))}
    return np.array([order[label] for label in best])


def topic_terms(
    questions_by_cluster: list[list[str]],
    centres: np.ndarray,
    embed: Callable[[str], np.ndarray],
    top: int = TOPIC_TERMS,
) -> list[str]:
    """Each cluster's most telling terms: words asked more often here than in any other cluster, the
    ones whose meaning is closest to the cluster's centre first (a word several questions share
    gets a small bonus)."""
    vectorizer = CountVectorizer(
        strip_accents="unicode",
        lowercase=True,
        binary=True,
        token_pattern=r"(?u)\b[^\W\d_]{4,}\b",
        stop_words=_STOP_WORDS,
    )
    try:
        vectorizer.fit([q for questions in questions_by_cluster for q in questions])
    except ValueError:  # nothing but stop words
        return ["" for _ in questions_by_cluster]
    vocabulary = vectorizer.get_feature_names_out()
    asked = np.vstack([vectorizer.transform(questions).toarray().sum(axis=0) for questions in questions_by_cluster])
    names = []
    for number, centre in enumerate(centres):
        elsewhere = np.delete(asked, number, axis=0).max(axis=0) if len(asked) > 1 else np.zeros(len(vocabulary))
        candidates = [i for i in np.nonzero(asked[number] > elsewhere)[0]]
        scored = sorted(
            candidates,
            key=lambda i: -(float(embed(vocabulary[i]) @ centre) + TERM_SHARED_BONUS * (asked[number][i] - 1)),
        )
        names.append(" · ".join(vocabulary[i] for i in scored[:top]))
    return names


def _count(values: Iterable[str]) -> dict[str, int]:
    counted: dict[str, int] = {}
    for value in values:
        counted[value] = counted.get(value, 0) + 1
    return dict(sorted(counted.items(), key=lambda item: (-item[1], item[0])))


def find_gaps(deps: AppDeps, user: users.User, *, days: int = 30) -> list[GapCluster]:
    """The admin's organisation's knowledge gaps of the last ``days``, largest first; departments
    named in the admin's language."""
    _admin(user)
    return _org_gaps(deps, user.org_id, days, user.language)


def _org_gaps(deps: AppDeps, org_id: UUID, days: int, lang: str | None = None) -> list[GapCluster]:
    pool = deps.pool
    with pool.connection() as conn:
        asked = gaps.gap_questions(conn, org_id, timedelta(days=days), lang)
    if not asked:
        return []
    vectors = np.vstack([deps.embed_query(q.text) for q in asked])
    languages = [q.language or "und" for q in asked]
    labels = cluster_labels(vectors, languages)
    members = [[i for i, label in enumerate(labels) if label == c] for c in range(labels.max() + 1)]
    centres = np.vstack([vectors[group].mean(axis=0) for group in members])
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    terms = topic_terms([[asked[i].text for i in group] for group in members], centres, deps.embed_query)
    clusters = []
    with pool.connection() as conn:
        for number, group in enumerate(members):
            askers = len({asked[i].user_id for i in group})
            visible = askers >= MIN_ASKERS
            near = gaps.nearest_documents(conn, org_id, centres[number])
            clusters.append(
                GapCluster(
                    key=f"gap-{number + 1}",
                    topic=terms[number] if visible else "",
                    questions=len(group),
                    askers=askers,
                    visible=visible,
                    languages=_count(languages[i] for i in group),
                    departments=_count(asked[i].department or "—" for i in group) if visible else {},
                    examples=list(dict.fromkeys(asked[i].text for i in group)) if visible else [],
                    documents=[
                        {"document_id": str(d.document_id), "title": d.title, "similarity": round(d.similarity, 3)}
                        for d in near
                    ],
                )
            )
    return clusters


class GapActionError(ValueError):
    """An action on a gap that cannot be done; one line in the admin's language."""


def _admin(user: users.User) -> None:
    if not user.is_admin:
        raise GapActionError(t("insights.gaps.admins_only", user.language))


def check_actionable(user: users.User, cluster: GapCluster) -> None:
    """An admin acting on a cluster enough people asked about, or GapActionError in their language."""
    _admin(user)
    if not cluster.visible:
        raise GapActionError(t("insights.gaps.too_few_askers", user.language, n=MIN_ASKERS))


def lesson_brief(cluster: GapCluster, lang: str) -> str:
    """What a content job drafting a lesson for this gap should answer."""
    return t("insights.gaps.brief", lang, topic=cluster.topic, questions="\n".join(f"- {q}" for q in cluster.examples))


def note_missing_document(deps: AppDeps, user: users.User, cluster: GapCluster, note: str = "") -> bool:
    """Record for the content owner that no document covers this topic; True when the note is new."""
    check_actionable(user, cluster)
    with deps.pool.connection() as conn:
        created = gaps.save_note(conn, user.org_id, cluster.topic, cluster.questions, note.strip()[:1000], user.id)
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="knowledge_gap.missing_document",
            entity_type="knowledge_gap",
            entity_id=cluster.topic,
            before=None,
            after={"questions": cluster.questions, "note": note.strip()[:1000]},
        )
    return created


def missing_document_notes(deps: AppDeps, user: users.User) -> list[gaps.GapNote]:
    _admin(user)
    with deps.pool.connection() as conn:
        return gaps.list_notes(conn, user.org_id)


def cli(deps: AppDeps, slug: str, days: int, as_json: bool) -> int:
    """``python -m agents.tutor gaps --org SLUG [--days N] [--json]``: an operator's report (no user)."""
    if days < 1:
        print("error: --days must be at least 1", file=sys.stderr)
        return 2
    with deps.pool.connection() as conn:
        org = users.get_org_by_slug(conn, slug)
    if org is None:
        print(f"error: no organisation {slug!r}", file=sys.stderr)
        return 2
    clusters = _org_gaps(deps, org.id, days)
    if as_json:
        print(json.dumps({"org": slug, "days": days, "clusters": [c.as_json() for c in clusters]}, ensure_ascii=False))
        return 0
    for cluster in clusters:
        print(f"{cluster.questions:3d} questions · {cluster.askers} people · {cluster.topic or '(too few askers)'}")
        for example in cluster.examples:
            print(f"      {example}")
    return 0
