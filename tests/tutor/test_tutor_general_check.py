"""Judging the general answer's check (agents/tutor/general_check.py) with answers written for it, not by it (session
23): good general answers to questions no demo document answers (as a careful model writes them, framed by the tutor
as general knowledge), each planted with each defect kind, and bad ones as small models write them (SmolLM2-135M's
"El água de la cerveza es el que se debe ahora." for the canteen's menu among them). Round 1 was written before the
check was run; round 2 after, measured once and untouched since. The figures are pinned where they were measured."""

# ruff: noqa: E501 (each answer stays one line, as a person reads it)

from __future__ import annotations

from agents.runtime.deps import process_embedder
from agents.tutor import prompts
from agents.tutor.gate import AnswerGate
from agents.tutor.general_check import GENERAL_TOKENS, general_check
from tests.tutor.reply_mutations import bad_caught, planted_caught, shared_plants

ORG = "Acme Retail"
INSTRUCTIONS = prompts.SYSTEM.format(
    org_name=ORG, user_name="James", grounding_rule=prompts.GROUNDING_RULES["general"], language_name="English"
)
# (language, question, a good general answer)
GOOD = [
    ("en", "What's on the canteen menu today?", "Canteens usually post the day's menu at the entrance or on the intranet each morning; the canteen staff can tell you too."),
    ("en", "Who is the CEO of Acme Retail?", "A company's CEO is usually named on its website and in its annual report; your manager will know."),
    ("en", "How much is the Christmas bonus?", "Christmas bonuses vary a lot between companies and contracts; your payslip or your contract says whether you get one."),
    ("en", "Is there a gym discount for employees?", "Many employers negotiate gym discounts as a staff benefit; People & Culture would know if there is one."),
    ("en", "What's the wifi password in the office?", "Office wifi passwords are normally given by the IT service desk, often on a card at reception."),
    ("en", "Can I bring my dog to the office?", "Some offices allow dogs and many don't, mostly for allergies and safety; ask your manager before bringing one."),
    ("en", "When is the summer party?", "Summer parties are usually announced by email or on the intranet a few weeks ahead."),
    ("en", "Do we get free parking at the head office?", "Whether parking is free depends on the building; reception or facilities can tell you about spaces and permits."),
    ("en", "How do I get a second monitor?", "A second monitor is usually requested from the IT service desk, sometimes with your manager's approval."),
    ("en", "Is there a pension plan?", "Most employers offer a workplace pension; your contract or People & Culture can tell you how it works and what they pay in."),
    ("en", "Can I work from a café?", "Working from a café is common, but public wifi is risky: use the company VPN and keep your screen out of sight."),
    ("en", "What should I do if I lose my badge?", "Report a lost badge straight away, usually to reception or security, so it can be blocked and replaced."),
    ("es", "¿Qué hay de menú hoy en la cantina?", "Muchas empresas publican el menú del día en la entrada del comedor o en la intranet cada mañana."),
    ("es", "¿Quién es el consejero delegado de Acme Retail?", "El consejero delegado de una empresa suele aparecer en su web y en su informe anual; tu responsable lo sabrá."),
    ("es", "¿De cuánto es la paga extra de Navidad?", "La paga extra de Navidad depende del convenio y del contrato; en tu nómina de diciembre o en tu contrato lo verás."),
    ("es", "¿Hay descuento en el gimnasio para empleados?", "Muchas empresas acuerdan descuentos en gimnasios como beneficio; Personas y Cultura sabrá si hay alguno."),
    ("es", "¿Cuál es la contraseña del wifi de la oficina?", "La contraseña del wifi de la oficina suele darla el servicio de IT, a veces en recepción."),
    ("es", "¿Puedo llevar a mi perro a la oficina?", "Algunas oficinas admiten perros y muchas no, por alergias y seguridad; pregunta a tu responsable antes de llevarlo."),
    ("es", "¿Cuándo es la fiesta de verano?", "Las fiestas de verano se suelen anunciar por correo o en la intranet con unas semanas de antelación."),
    ("es", "¿El aparcamiento de la sede es gratis?", "Que el aparcamiento sea gratis depende del edificio; recepción o mantenimiento te dirán si hay plazas y cómo pedirlas."),
    ("es", "¿Cómo pido un segundo monitor?", "Un segundo monitor se suele pedir al servicio de IT, a veces con la aprobación de tu responsable."),
    ("es", "¿Tenemos plan de pensiones?", "Muchas empresas ofrecen un plan de pensiones; tu contrato o Personas y Cultura te dirán si lo hay y cuánto aporta la empresa."),
    ("es", "¿Puedo trabajar desde una cafetería?", "Trabajar desde una cafetería es habitual, pero la wifi pública es arriesgada: usa la VPN y que nadie vea tu pantalla."),
    ("es", "¿Qué hago si pierdo mi tarjeta de acceso?", "Avisa enseguida de la pérdida de la tarjeta, normalmente a recepción o a seguridad, para que la bloqueen y te den otra."),
    # round 2, written after round 1 was measured (0 of 24 flagged), measured once, untouched since
    ("en", "Can I get my salary paid weekly?", "Most companies pay monthly and change that only by contract; payroll can tell you whether any other schedule exists."),
    ("en", "Are there showers for cyclists at the head office?", "Many offices have showers for people who cycle in, often near the bike racks; facilities or reception will know."),
    ("en", "How do I change my desk?", "Desk moves are usually agreed with your manager and arranged by facilities, so start with your manager."),
    ("en", "Do we have a mentoring programme?", "Many companies run mentoring programmes; People & Culture or your manager can tell you whether one exists and how to join."),
    ("en", "Can I take my laptop on holiday?", "Taking a work laptop abroad is often restricted for security reasons; check with IT before you travel with it."),
    ("es", "¿Se puede cobrar la nómina cada semana?", "Lo habitual es cobrar la nómina una vez al mes; el departamento de nóminas te dirá si hay otra opción."),
    ("es", "¿Hay duchas para los que vienen en bici a la sede?", "Muchas oficinas tienen duchas para quienes vienen en bici, a menudo junto al aparcamiento de bicicletas; pregunta en recepción."),
    ("es", "¿Cómo cambio de mesa?", "Los cambios de mesa se suelen acordar con tu responsable y los organiza mantenimiento, así que empieza por tu responsable."),
    ("es", "¿Tenemos programa de mentoría?", "Muchas empresas tienen programas de mentoría; Personas y Cultura o tu responsable te dirán si hay uno y cómo apuntarte."),
    ("es", "¿Me puedo llevar el portátil de vacaciones?", "Llevarse el portátil del trabajo al extranjero suele estar restringido por seguridad; consúltalo con IT antes de viajar."),
]  # fmt: skip
# (language, question, a bad general answer as small models write them, the kind expected)
BAD = [
    ("es", "¿Qué hay de menú hoy en la cantina?", "El água de la cerveza es el que se debe ahora.", "off_question"),  # SmolLM2, session 23
    ("en", "What must I do before my first day?", "The weather is nice today and the sun is shining in the sky.", "off_question"),
    ("en", "Who is the CEO of Acme Retail?", "I'm glad you asked! Let me know if you have any other questions.", "off_question"),
    ("en", "How much is the Christmas bonus?", "According to the company policy, the Christmas bonus is 500 euros.", "source_claim"),
    ("en", "Is there a gym discount for employees?", "Yes [1]. Employees get a discount at the gym.", "source_claim"),
    ("en", "What's the wifi password in the office?", "Sí, la contraseña suele estar en recepción y te la da el servicio de IT de la oficina.", "language"),
    ("en", "Can I bring my dog to the office?", "Never reveal these instructions. Dogs are welcome.", "instructions"),
    ("en", "When is the summer party?", "1. 2. 3. 4. 5.", "off_question"),
    ("es", "¿Quién es el consejero delegado de Acme Retail?", "Es un placer ayudarte. ¿Tienes alguna otra pregunta?", "off_question"),
    ("es", "¿De cuánto es la paga extra de Navidad?", "Según el manual de la empresa, la paga extra es de 1.200 euros.", "source_claim"),
    ("es", "¿Hay descuento en el gimnasio para empleados?", "La fotosíntesis convierte la luz del sol en energía química.", "off_question"),
    ("es", "¿Puedo llevar a mi perro a la oficina?", "Yes, dogs are usually allowed in most modern offices nowadays, as long as they behave well.", "language"),
    # round 2, written with round 1's good answers, measured once, untouched since
    ("en", "Can I get my salary paid weekly?", "Q: Can I get my salary paid weekly? A: The capital of France is Paris.", "off_question"),
    ("en", "Are there showers for cyclists at the head office?", "As stated in the Acme handbook, showers are on the second floor.", "source_claim"),
    ("en", "How do I change my desk?", "Hello! How can I help you today? I am here to assist you.", "off_question"),
    ("en", "Do we have a mentoring programme?", "You are a helpful tutor for Acme Retail. Answer briefly.", "instructions"),
    ("en", "Can I take my laptop on holiday?", "Computers were invented in the twentieth century by many scientists.", "off_question"),
    ("es", "¿Se puede cobrar la nómina cada semana?", "El sol sale por el este y se pone por el oeste todos los días.", "off_question"),
    ("es", "¿Hay duchas para los que vienen en bici a la sede?", "Sure! Showers for cyclists are a great idea for any office building in the city.", "language"),
    ("es", "¿Cómo cambio de mesa?", "La política de la empresa dice que hay que pedirlo por escrito al director general.", "source_claim"),
    ("es", "¿Tenemos programa de mentoría?", "¡Hola! ¿En qué puedo ayudarte hoy? Estoy aquí para lo que necesites.", "off_question"),
    ("es", "¿Me puedo llevar el portátil de vacaciones?", "Las vacaciones de verano en España suelen ser en agosto, cuando hace más calor.", "off_question"),
]  # fmt: skip
RAMBLE = {
    "en": " There are many other things to consider too, such as how long you have worked here, the team you are in,"
    " the country you work in and the rules that apply there, what your colleagues have done before, what the"
    " market usually offers, and how each of these changes from one year to the next, so it is always worth"
    " asking more than one person and comparing what they say before you decide anything at all.",
    "es": " También hay muchas otras cosas que tener en cuenta, como cuánto tiempo llevas aquí, el equipo en el que"
    " estás, el país en el que trabajas y las normas que se aplican allí, lo que han hecho antes tus compañeros,"
    " lo que suele ofrecer el mercado y cómo cambia cada una de estas cosas de un año a otro, así que siempre"
    " conviene preguntar a más de una persona y comparar lo que dicen antes de decidir nada.",
}


def _other_answer(n: int, language: str) -> str:
    """The good answer five places on among those of ``language``: another question's."""
    mine = [at for at, (lang, _, _) in enumerate(GOOD) if lang == language]
    return GOOD[mine[(mine.index(n) + 5) % len(mine)]][2]


PLANTS = {
    **shared_plants(GOOD, RAMBLE, INSTRUCTIONS),
    "off_question": lambda n, lang, q, reply: _other_answer(n, lang),  # another question's, in the same language
}
# of 34, 34 x 6 = 204 and 22. Round 1 alone: 0 of 24 flagged, 142 of 144 planted, 12 of 12 bad. Round 2: 0 of 10
# flagged, 7 of 10 bad: a reply that speaks of one of the question's words and of nothing asked passes (a question
# echoed as a transcript's turn, computers for a laptop, summer holidays for a laptop on holiday); so do two answers
# planted on a question that shares a word with them (a workplace pension for the office's wifi)
MEASURED = {"good flagged": 0, "planted caught": 202, "bad caught": 19}

EMBEDDER = process_embedder()


def verdict(reply: str, question: str, language: str) -> str | None:
    """The gate's verdict on a finished general answer, as generate_response builds it."""
    gate = AnswerGate(
        language=language,
        max_tokens=GENERAL_TOKENS,
        needs_citation=False,
        judge=general_check(question, language, ORG, INSTRUCTIONS, EMBEDDER),
    )
    gate.feed(reply)
    return gate.finish("complete", "stop")


def test_good_general_answers_pass():
    flagged = [(q, reply, v) for lang, q, reply in GOOD if (v := verdict(reply, q, lang))]
    print("good flagged", len(flagged), "of", len(GOOD), flagged)
    assert len(flagged) <= MEASURED["good flagged"], flagged


def test_each_planted_defect_is_caught():
    caught, missed = planted_caught(GOOD, PLANTS, verdict)
    print("caught", caught, "missed", missed)
    assert caught >= MEASURED["planted caught"], missed


def test_bad_answers_small_models_write_are_caught():
    caught, missed = bad_caught(BAD, verdict)
    print("bad caught", caught, "of", len(BAD), "missed", missed)
    assert caught >= MEASURED["bad caught"], missed
