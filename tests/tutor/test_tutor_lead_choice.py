"""Which of the sentences that pass the answer check leads the answer (issue 29, session 21): of those in the
document of the best ranked one, the one that says most of what was asked. Before, the best ranked sentence that
passed led, and the answer stopped at the sentence above the one asked about: the list of accepted proofs of
purchase for "is a bank statement accepted?", harassment in public or private for publishing a private address.
The passages are the documents' own text (seeds/documents, seeds/public)."""

from __future__ import annotations

from agents.runtime.deps import process_embedder
from agents.tutor.answers import select_sentences
from tests.tutor.conftest import passage

EMBEDDER = process_embedder()

PROOF_OF_PURCHASE = (
    "Accepted proofs of purchase are the till receipt, the e-mail order confirmation, the gift receipt, or a "
    "purchase found in the customer's loyalty account. A bank statement alone is not accepted, because it does "
    "not show which products were bought."
)
UNACCEPTABLE = """Ejemplos de comportamiento inaceptable:

* El uso de lenguaje o imágenes sexualizadas, y aproximaciones o atenciones sexuales de cualquier tipo
* Comentarios despectivos (_trolling_), insultantes o derogatorios, y ataques personales o políticos
* El acoso en público o privado
* Publicar información privada de otras personas, tales como direcciones físicas o de correo electrónico, sin su permiso explícito
* Otras conductas que puedan ser razonablemente consideradas como inapropiadas en un entorno profesional"""  # noqa: E501


def _answer(question: str, text: str, document: str, section: str) -> str:
    found = passage(1, text, document=document, section=section, score=0.85)
    return select_sentences(question, [found], "en", EMBEDDER)


def test_the_sentence_that_says_what_was_asked_leads():
    bank = _answer(
        "Is a bank statement accepted as proof of purchase?",
        PROOF_OF_PURCHASE,
        "Returns and Refunds Policy",
        "2.2 Proof of purchase",
    )
    assert "A bank statement alone is not accepted" in bank, bank
    address = _answer(
        "Is publishing someone's private address acceptable?",
        UNACCEPTABLE,
        "Código de Conducta convenido para Contribuyentes",
        "Nuestros estándares",
    )
    assert "Publicar información privada" in address, address
