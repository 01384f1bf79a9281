"""The words the offline twin routes by (constants only): each tool's keywords, what a tool needs named, and
question words (what no tool does and where a request is cut into steps: step_words.py). Accents and case are
ignored when they are matched."""

# alerts asked in a phrase: "who can't pass their quizzes?", "whose certifications have gone out of date?"
_FAILING_OR_LAPSED = ["can t pass", "cannot pass", "no aprueba", "no aprueban", "out of date"]
# Offline routing, step one: a keyword typed word for word (or with one slip: "deactivte", "alretas")
# picks the tool outright, checked in this order (write verbs first: "asigna", "archive"). A write
# keyword after a question word is a question about the state ("Who is enrolled…?", "¿Quiénes están
# dados de baja?" never reaches a write). Accents and case are ignored.
TOOL_KEYWORDS: dict[str, list[str]] = {
    "assign_course": [
        "assign",
        "asigna",
        "asignar",
        "asignale",
        "asignarle",
        "asignalo",  # "asígnalo a Harry": it, the course said before
        "asignala",
        "enroll",
        "enrol",
        "enrolled",
        "enrolling",
        "inscribe",
        "inscribir",
        "inscribelo",
        "inscribela",
        "matricula",
        "matricular",
        "apunta",
        "apuntar",
        "apuntalo",
        "apuntala",
        "apuntame",  # "Apúntame a Grace y a Harry al repaso…": sign them up for me
        "apuntalos",  # "apúntalos al curso…": the people the answer before listed (agents.admin.earlier)
        "apuntalas",
        "inscribelos",
        "inscribelas",
        "asignales",
        "matriculalos",
        "matriculalas",
        "inscribeme",
        "register",
        "sign up",
    ],
    "verify_skill": ["verify", "verifica", "verificar", "set the level", "pon el nivel"],
    "deactivate_employee": [
        "deactivate",
        "desactiva",
        "desactivar",
        "desactivale",
        "disable",
        "turn off",
        "switch off",
        "revoke",
        "offboard",
        "suspend",
        "remove access",
        "remove his access",
        "remove her access",
        "remove his account",
        "remove her account",
        "remove the account",
        "da de baja",
        "dale de baja",
        "dar de baja",
        "dalo de baja",
        "dala de baja",
        "quitale el acceso",
        "quita el acceso",
        "quitale la cuenta",
        "bloquea el acceso",
        "bloquea la cuenta",
        "elimina el acceso",
        "revoca",
        "suspende",
    ],
    "archive_course": [
        "archive",
        "archiva",
        "archivar",
        "archivalo",  # "archívalo": the course the previous answer named (agents.admin.earlier)
        "archivala",
        "retiralo",
        "retire",
        "retira",
        "retirar",
        "offline",
        "quita de circulacion",
    ],
    "get_skills_matrix": ["skills matrix", "skill matrix", "matrix", "matriz"],
    "get_skill_gaps": [
        "skill gaps",
        "gaps",
        "brechas",
        "carencias",
        "no experts",
        "sin expertos",
        "no tienen expertos",
        "fewer than",
        "menos de",
        "nos faltan",
        "missing expertise",
    ],
    "get_mentorship_suggestions": [
        "mentor",
        "mentors",
        "mentoring",
        "mentorship",
        "mentoria",
        "mentores",
        "coach whom",
        "ensenar a quien",
        "teach whom",
    ],
    "get_course_stats": [
        "course stats",
        "statistics",
        "estadisticas",
        "stats",
        "completion rate",
        "hardest exercises",
        "performing",
        "numbers",  # "Show me the Store policy check-up numbers" (a course named: NEEDS_COURSE)
        "como va el curso",
        "who is enrolled",
        "enrolled in",
        "quien esta inscrito",
        "inscritos en",
        "tasa de finalizacion",
        "how many",
        "cuantos",
        "finished",
        "hasn't done",
        "haven't done",
        "not done",
        "no ha hecho",
        "no han hecho",
        "completed",
        "terminado",
        "acabado",
        "han terminado",
        "han completado",
    ],
    "get_employee_detail": [
        "employee detail",
        "perfil de",
        "profile",
        "perfil",
        "ficha de",
        "detalle del empleado",
        "how is",
        "how s",
        "doing",
        "getting on",
        "tell me about",
        "hablame de",
        "como va",
        "como le va",
        "que tal va",
        "que tal le va",
        "que tal esta",
        "que cursos tiene",
        "what courses is",
        "que nivel tiene",
        "level in",
        "lleva",  # "¿Qué tal lleva Elena el curso de seguridad?": a person in one course
        "progress",
        "progreso",
        "how far",
        "por donde va",
    ],
    "who_knows": [
        "who knows",
        "quien sabe",
        "who is an expert",
        "quien es experto",
        "quien es experta",
        "experts in",
        "expertos en",
        "good at",
        "can do",
        "alguien que domine",
        "best person for",
        "best at",
        "el mejor en",
        "la mejor en",
        "sabe de",
        "saben de",
        "sepa de",
        "sepan de",
        "experience with",
        "experience in",
        "experiencia en",
        "experiencia con",
        "someone who knows",
        "go to person",
    ],
    "get_alerts": [
        "alerts",
        "alertas",
        "at risk",
        "en riesgo",
        "overdue",
        "vencidos",
        "vencidas",
        "vencido",
        "past due",
        "expiring",
        "caducan",
        "expired",
        "caducadas",
        "caducado",
        "caducados",
        "certifications",
        "certificaciones",
        "missed",
        "a tiempo",
        "logged in",
        "log in",
        "sin entrar",
        "failing",
        "keeps failing",
        *_FAILING_OR_LAPSED,
        "suspende",
        "suspenden",
        "late with",
        "va tarde",  # "¿y quién más va tarde con ese curso?"
        "van tarde",
        "needs attention",
        "retrasado",
        "retraso",
        "behind",  # "Who's behind on Warehouse Safety?": that course's alerts
        "struggling",
        "quedando atras",
        "se queda atras",
        "se quedan atras",
    ],
    "list_courses": [
        "list courses",
        "list the courses",
        "list all courses",
        "lista de cursos",
        "lista los cursos",
        "que cursos",
        "which courses",
        "what courses",
        "all courses",
        "every course",
        "each course",
        "cada curso",
        "todos los cursos",
        "draft courses",
        "published courses",
        "cursos en borrador",
        "in draft",
        "en borrador",
        "sin publicar",
    ],
    "list_employees": [
        "list employees",
        "list everyone",
        "everyone in the company",
        "toda la plantilla",
        "lista de empleados",
        "list the employees",
        "all employees",
        "todos los empleados",
        "empleados inactivos",
        "inactive employees",
        "inactive accounts",
        "deactivated",
        "desactivados",
        "desactivado",
        "desactivadas",
        "dados de baja",
        "dado de baja",
        "dada de baja",
        "offboarded",
        "disabled",
        "administrador",
        "permisos de administrador",
        "has left",
        "have left",
        "se ha ido",
        "se han ido",
        "admins",
        "administradores",
        "employees",
        "empleados",
        "staff",
        "personal",
    ],
}
# "Which skills is the Stores team weakest in?": its gaps (department_reads); "¿Quién no ha entrado…?": inactive
TOOL_KEYWORDS["get_skill_gaps"] += ["weakest", "weak spots", "flojea", "flojean", "mas flojos", "puntos debiles"]
TOOL_KEYWORDS["get_alerts"] += ["no ha entrado", "no han entrado", "sin conectarse", "no se conecta", "not logged"]
# "Who's our best person at Oracle Financials?", "anyone know forklifts?": its experts
TOOL_KEYWORDS["who_knows"] += ["best person", "best at", "el mejor en", "la mejor en", "quien mejor", "strongest at"]
TOOL_KEYWORDS["who_knows"] += ["anyone know", "anybody know", "alguien sabe", "alguien que sepa", "quien mas sabe"]
TOOL_KEYWORDS["who_knows"] += ["strong at", "strong in", "fuerte en", "good with"]
# "What's Chloe's job title?", "What's on Emily's record?": the person's record
TOOL_KEYWORDS["get_employee_detail"] += ["job title", "puesto", "record", "todo lo que tengas", "file"]
# "What skills is Lucía missing for her role?": one person's gaps against their colleagues' (department_reads)
TOOL_KEYWORDS["get_skill_gaps"] += ["missing for", "skills missing", "le faltan", "le falta"]
# "Who looks like they won't make their deadline?", "Any skills about to lapse?"
TOOL_KEYWORDS["get_alerts"] += ["won't make", "no va a llegar", "no van a llegar", "lapse", "about to expire"]
TOOL_KEYWORDS["get_alerts"] += ["going to miss", "llegar tarde"]
# "What's the average score on…?", "Who hasn't started…?", "Who's signed up for…?": the course's figures
TOOL_KEYWORDS["get_course_stats"] += ["average score", "nota media", "hasn't started", "haven't started"]
TOOL_KEYWORDS["get_course_stats"] += ["no ha empezado", "no han empezado", "signed up for", "sin empezar"]
# Tools a keyword alone can't pick: they need the thing they are about named in the step.
NEEDS_PERSON = {"get_employee_detail", "deactivate_employee", "verify_skill"}
NEEDS_COURSE = {"archive_course", "get_course_stats"}
# A department's head count ("How many people are in Customer Care?", "¿Cuánta gente trabaja en Finanzas?")
HEADCOUNT_WORDS = {"headcount", "head count", "plantilla", "how many", "cuantos", "cuantas", "cuanta", "cuanto"}
# Verbs that assign when a course and a person are named ("Give Emily the customer service course").
ASSIGN_VERBS = {"give", "put", "add", "sign", "mete", "metele", "anade", "pon", "ponle", "haga", "hagan", "take"}
ASSIGN_VERBS |= {"ponlos", "ponlas", "metelos", "metelas", "necesita", "necesitan", "needs"}  # "Isabel needs the…"
ASSIGN_VERBS |= {"hacer"}  # "Todo Atención al Cliente tiene que hacer el repaso…"
ASSIGN_VERBS |= {"pop", "stick", "slot", "metes", "pones", "apuntas", "inscribes"}  # "¿me metes a David en…?"
# Question words: a write keyword after one is a question about the state, not an order.
QUESTION_WORDS = {"who", "whom", "which", "what", "whose", "quién"}
QUESTION_WORDS |= {"quiénes", "qué", "cuál", "cuáles", "quien", "quienes"}
# What admins call a course or a department for short ("Is Priya done with infosec?", "¿Quién va atrasado en
# ciberseguridad?", "the HR team"): a name of the course whose title holds the words, or of the department so
# named (under four letters only as written, capitals and all).
NICKNAMES = {
    "infosec": "information security",
    "cybersecurity": "information security",
    "cyber security": "information security",
    "ciberseguridad": "seguridad de la información",
    "seguridad informática": "seguridad de la información",
    "seguridad informatica": "seguridad de la información",
    "HR": "People & Culture",
    "RRHH": "Personas y Cultura",
    "RR. HH.": "Personas y Cultura",
    "recursos humanos": "Personas y Cultura",
    "human resources": "People & Culture",
}
# People named by a level ("the beginners at phishing", "¿quiénes son principiantes en…?"): that level only.
BEGINNER_WORDS = {"beginner", "beginners", "novice", "novices", "principiante", "principiantes", "novato", "novatos"}
BEGINNER_WORDS |= {"novata", "novatas"}
# "at a beginner level or above": a lower bound, not that level only
AT_LEAST_WORDS = {"above", "least", "more", "superior", "minimo", "menos", "upwards"}
