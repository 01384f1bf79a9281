"""Names people read and type: folded for matching (case and accents aside) and shown per language.

Skills, categories, departments and courses keep one canonical name (unique; what tools and filters
key on) and a ``names``/``titles`` JSON object with the name in each language.
"""

from __future__ import annotations

import unicodedata

# SQL twin of fold(): lower-case and strip the accents Spanish and English text carry.
_ACCENTED, _PLAIN = "áàäâãéèëêíìïîóòöôõúùüûñç", "aaaaaeeeeiiiiooooouuuunc"


def fold(text: str) -> str:
    """Lower-case, accents removed: 'Lucía' and 'lucia' compare equal."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower().strip()


def fold_sql(column: str) -> str:
    return f"translate(lower({column}), '{_ACCENTED}', '{_PLAIN}')"


def in_language(names: str, canonical: str) -> str:
    """SQL: the name in the reader's language (the ``%(lang)s`` parameter), else the canonical one."""
    return f"coalesce({names} ->> %(lang)s::text, {canonical})"


def any_name_contains(names: str, canonical: str, needle: str = "name") -> str:
    """SQL: the canonical name or any language's name contains ``%(<needle>)s`` (already folded)."""
    return (
        f"({fold_sql(canonical)} LIKE '%%' || %({needle})s || '%%'"
        f" OR EXISTS (SELECT 1 FROM jsonb_each_text({names}) AS n(lang, value)"
        f" WHERE {fold_sql('n.value')} LIKE '%%' || %({needle})s || '%%'))"
    )
