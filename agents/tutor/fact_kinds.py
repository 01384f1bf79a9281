"""What kind of fact a question asks (what do I do, when, how many, who, may I) and whether a sentence holds
one: the answer check's fact test (agents/tutor/answer_check.py), on folded text in Spanish and English."""

from __future__ import annotations

import re

from core.text import MONTHS_EN, MONTHS_ES, NUMBER_WORDS, TIME_UNITS, alternation, fold

_KIND_ASKED = [  # (kind, question pattern on folded text); the first that matches decides
    (
        # what to do in a situation ("I clicked a dodgy link, what now?", "¿qué hago?"): the answer is a step
        "procedure",
        re.compile(
            r"\b(what (now|next|should i do|do i do|do we do|must i do|do i have to do|can i do)|"
            r"que (hago|debo hacer|tengo que hacer|hay que hacer|hacemos|puedo hacer)|"
            r"como (aviso|lo aviso|lo comunico|informo|lo notifico|actuo|procedo))\b"
        ),
    ),
    (
        # how long something must be, the question ending at "be" ("How long does my password need to be?", "¿Qué
        # longitud tiene que tener?"): a length or a duration, not a time ("How long do I need to be employed
        # before…?" asks a period: an event follows "be")
        "length",
        re.compile(
            r"\bhow long (does|do|must|should|can|will|would|has|have|is|are) (\w+ ){1,6}be\W*$|"
            r"\b(que longitud|como de larg[oa]s?|cuanto (tiene que|debe|ha de) medir)\b"
        ),
    ),
    (
        "when",
        re.compile(
            r"\b(when|by when|how soon|how long|how quickly|within how|until when|what time|"
            r"cuando|hasta cuando|en que plazo|que plazo|cuanto tiempo|a que hora|con cuanta antelacion|"
            r"cada cuanto|how often|con que frecuencia|after how long|despues de cuanto)\b"
        ),
    ),
    (
        "amount",
        re.compile(
            r"\b(how (many|much)|cuant[oa]s?|what (is the )?(maximum|minimum|limit|percentage|rate)|"
            r"(cual|que) es (el|la) (limite|precio|longitud)|maxim[oa]|minim[oa]|maximum|minimum|up to what|hasta que|"
            r"above what|a partir de que|by how much|en cuanto|que porcentaje|what amount)\b"
        ),
    ),
    (
        "who",
        re.compile(
            r"^\W*(who|whom|quien|quienes)\b|\b(who (must|can|may|pays|approves)|quien (debe|puede|paga|tiene))\b|"
            r"\b(a|con) quien(es)?\b"
        ),
    ),
    (
        "rule",
        re.compile(
            r"^\W*(can|may|could|is it|are|is|do|does|se puede|puedo|esta permitido|se permite|"
            r"es obligatorio|se reembolsan?|es aceptable|is .* allowed)\b"
        ),
    ),
]
_DIGIT = re.compile(r"\d")
_NUMBER_WORDS = re.compile(r"\b(" + alternation(NUMBER_WORDS + " once twice un una half medio media") + r")\b")
_PERIOD = re.compile(
    r"\b("
    + alternation(TIME_UNITS, folded=True)
    + r"|immediately|inmediato|inmediatamente|before|after|antes|despues|until|hasta|end of|al final|fin de|"
    r"daily|weekly|monthly|annual|yearly|diario|semanal|mensual|anual|"
    + alternation(f"{MONTHS_EN} {MONTHS_ES}", folded=True)
    + r"|monday|friday|lunes|viernes|turno|shift)\b"
)
_ROLE = re.compile(
    r"\b(manager|supervisor|director|officer|team|desk|department|owner|administrator|administrators|"
    r"traveler|traveller|employee|responsable|director|jefe|equipo|departamento|direccion|servicio|"
    r"administradores|delegado|coordinador|conductor|cajero|cashier|specialist|approver|official|"
    r"hr|people|persona|personas|you|usted)\b"
)
# a condition says when something applies, and whether one may: "only if your authorization to travel has been
# approved", "if you are asked to serve as a witness", "durante los trabajos en altura", "for however long you serve"
_CONDITION = re.compile(
    r"\b(if|only if|unless|whenever|during|as long as|however long|si|solo si|salvo que|siempre que|durante|mientras)\b"
)
# a step to take: "report it straight away", "tell your manager", "avisamos a seguridad", "debe comunicarse"
_STEP = re.compile(
    r"\b(report|tell|call|contact|send|inform|notify|press|use|ask|write|forward|delete|change|follow|fill|"
    r"refer|offer|explain|keep|stop|return|must|should|need to|have to|reach out|get in touch|speak to|talk to|"
    r"bring|collect|sign|complete|wear|show|lleva|lleve|llevar|trae|traiga|traer|firma|firme|firmar|completa|"
    r"completar|muestra|muestre|"
    r"habla|hable|hablar|acude|acuda|acudir|ponte en contacto|pongase en contacto|"
    r"avisa|avise|avisar|comunica|comunique|comunicar|comunicarse|comunicamos|llama|llame|llamar|"
    r"envia|envie|enviar|informa|informe|informar|contacta|contacte|contactar|pide|pida|pedir|"
    r"usa|usar|utiliza|utilice|debe|deben|debes|hay que|tiene que|tienes que|ofrece|"
    r"reporta|reportar|escribe|escribir|rellena|rellenar|entrega|"
    # the manuals' own voice: "buscamos a un compañero", "mantenemos la calma"
    r"buscamos|usamos|pedimos|mantenemos|entregamos|respondemos|abrimos|derivamos|anotamos|registramos|"
    r"revisamos|retiramos|ayudamos|acompanamos|atendemos|escuchamos|ofrecemos|explicamos|avisamos|llamamos)\b"
)
# ... unless someone else will take it: "Your manager will send you your start time" ("you will need to" is yours)
_SOMEONE_ELSE_WILL = re.compile(r"(?<!\byou )\bwill $")
# a unit of length: "how long" may ask one ("how long does my password need to be?": "14 characters")
_LENGTH_UNITS = r"characters?|caracteres|digits?|digitos|letters?|letras|words|palabras|cm|mm|metres?|meters?|metros?"
_LENGTH = re.compile(rf"\b({_LENGTH_UNITS})\b")
# ... said as a size: a figure and its unit, of length or of time ("14 characters", "four or more unrelated words")
_SIZE = re.compile(
    r"(\d+|\b("
    + alternation(NUMBER_WORDS)
    + r"))\s+(\w+\s+){0,3}("
    + _LENGTH_UNITS
    + "|"
    + alternation(TIME_UNITS, folded=True)
    + r")\b"
)
_RULE = re.compile(
    r"\b(may|can|cannot|can't|must|only|never|not|no|allowed|prohibited|forbidden|required|mandatory|"
    r"permitted|reimbursable|reimbursed|blocked|refused|accepted|puede|pueden|debe|deben|nunca|solo|"
    r"prohibido|prohibida|obligatorio|obligatorios|permite|permitido|reembolsan|acepta|aceptable|"
    r"inaceptable|se rechazan?)\b"
)


def asked_kind(question: str) -> str | None:
    plain = fold(question)
    return next((kind for kind, pattern in _KIND_ASKED if pattern.search(plain)), None)


def holds_kind(sentence: str, kind: str | None) -> bool:
    """Whether ``sentence`` holds a fact of the kind asked (any sentence, when no kind is asked)."""
    plain = fold(sentence)
    if kind in ("when", "rule") and _CONDITION.search(plain):
        return True
    if kind == "procedure":  # a step someone else will take is none of the asker's
        return any(not _SOMEONE_ELSE_WILL.search(plain[: step.start()]) for step in _STEP.finditer(plain))
    if kind == "when":
        return bool(
            (_PERIOD.search(plain) or _LENGTH.search(plain))
            and (_DIGIT.search(plain) or _NUMBER_WORDS.search(plain))
            or re.search(
                r"\b(immediately|inmediato|inmediatamente|same day|mismo dia|end of|ultimo dia|"
                r"last working day|every|cada)\b",
                plain,
            )
        )
    if kind == "length":
        return bool(_SIZE.search(plain))
    if kind == "amount":
        return bool(_DIGIT.search(plain) or _NUMBER_WORDS.search(plain))
    if kind == "who":
        return bool(_ROLE.search(plain))
    if kind == "rule":
        return bool(_RULE.search(plain))
    return True
