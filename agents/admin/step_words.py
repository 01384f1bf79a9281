"""The words that shape an admin's request (constants only): what no tool does, asking for help, and where a
request is cut into steps (each tool's keywords: vocabulary.py). Accents and case are ignored when matched."""

# What no tool does: a request about these is answered with what the assistant can do, never guessed.
OUT_OF_SCOPE = [
    "salary",
    "sueldo",
    "salario",
    "pay rise",
    "email",
    "e mail",
    "correo",
    "weather",
    "tiempo hace",
    "flight",
    "vuelo",
    "poem",
    "poema",
    "joke",
    "chiste",
    "pizza",
    "pizzas",
    "translate",
    "traduce",
    "capital",
    "delete",
    "borra",
    "database",
    "base de datos",
    "holidays",
    "vacaciones",
    "create",  # a new course is the content studio's work; no tool sends reminders
    "crea",
    "crear",
    "new course",
    "curso nuevo",
    "nuevo curso",
    "reminder",
    "recordatorio",
    "remind",  # "remind them": no tool sends a message
    "recuerdale",
    "recuerdaselo",
    "recuerdales",
    "recuerdaselos",
    "nudge",
    "cambiarle la contrasena",  # a password is the sign-in page's, not the assistant's
    "cambiar la contrasena",
    "cambia la contrasena",
    "restablece la contrasena",
    "change her password",
    "change his password",
    "change the password",
    "reactivate",  # an account is reactivated on the people page
    "reactiva",
    "rename",  # a course's title is the content studio's
    "renombra",
    "cambiale el nombre",
    "cambia el nombre",
    "nomina",  # payroll is no part of SkillNet
    "payroll",
    "print",  # nothing is printed from here: certificates are the learner's page
    "imprime",
    "imprimes",
    "imprimir",
    "job title to",  # a record's fields are the people page's, not the assistant's
    "cambia el puesto",
    "cambiale el puesto",
]
# what an account is called: "quita el acceso a Tom" deactivates him, it takes no course away
ACCESS_WORDS = {"access", "account", "login", "acceso", "cuenta"}
# An admin correcting themself mid-request ("déjalo en medium… bueno no, en high", "low, I mean medium"): what
# follows the last of these is what they meant
SELF_CORRECTIONS = [["bueno", "no"], ["mejor", "dicho"], ["i", "mean"], ["no", "wait"], ["actually"], ["perdon"]]
HELP_KEYWORDS = ["help", "ayuda", "what can you do", "que puedes hacer"]
# what a request for help says beside those words ("Hi, can you help me, please?", "necesito ayuda, porfa"); any
# other word makes it a request of its own: "Who needs help with phishing?" asks about phishing, not the assistant
HELP_ONLY_WORDS = {"help", "ayuda", "ayudas", "ayudame", "ayudarme", "ayudar", "need", "necesito", "please", "pls"}
HELP_ONLY_WORDS |= {"porfa", "favor", "can", "could", "you", "puedes", "podrias", "hacer", "hello", "hola", "hey"}
HELP_ONLY_WORDS |= {"buenas", "assistant", "asistente", "here", "aqui", "use", "usar", "usarte", "how", "como"}
HELP_ONLY_WORDS |= {"works", "funciona", "funcionas", "tool", "herramienta", "esto", "with", "con", "quick", "some"}
HELP_ONLY_WORDS |= {"poco", "una", "exactly"}

# Words that split a request into steps ("do A and then B"): each step is planned on its own.
STEP_SEPARATORS = (" and then ", " then ", " y luego ", " luego ", " después ", " y después ", "; ")
# Words that join two requests or two names ("the alerts and the matrix", "Javier y Ana"): a split here
# only when what follows is a request of its own (a keyword routes it).
JOINERS = (
    r"\?\s+(?:and |y |also,? |también,? |y también,? |además,? )?¿?",
    r"\.\s+(?:also,? |además,? )?",
    r",?\s+as well as\s+",
    r",?\s+y además\s+",
    r",?\s+and also\s+",
    r",?\s+and\s+",
    r",?\s+y\s+",
    r",\s+",
)
