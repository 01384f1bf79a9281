"""Signing in and out, sessions, throttling, SSO, and the navigation's page titles."""

MESSAGES = {
    "auth.tagline": {
        "en": "Learn from your company's own documents.",
        "es": "Aprende con los documentos de tu empresa.",
    },
    "auth.preparing_title": {"en": "Starting", "es": "Arrancando"},
    "auth.preparing": {
        "en": "Preparing SkillNet: the database and the demo organisation. The sign-in form "
        "appears here by itself in a few seconds.",
        "es": "Preparando SkillNet: la base de datos y la organización de demostración. El "
        "formulario de acceso aparecerá aquí solo en unos segundos.",
    },
    "auth.preparing_failed": {
        "en": "SkillNet could not prepare its database: {reason}. Fix it and restart the server.",
        "es": "SkillNet no ha podido preparar su base de datos: {reason}. Corrígelo y reinicia el servidor.",
    },
    "auth.email": {"en": "Email", "es": "Correo electrónico"},
    "auth.password": {"en": "Password", "es": "Contraseña"},
    "auth.sign_in": {"en": "Sign in", "es": "Entrar"},
    "auth.signing_in": {"en": "Signing you in…", "es": "Entrando…"},
    "auth.sign_out": {"en": "Sign out", "es": "Salir"},
    "auth.refused": {
        "en": "Wrong email or password, or the account is inactive.",
        "es": "Correo o contraseña incorrectos, o la cuenta está inactiva.",
    },
    "auth.chat_session_over": {
        "en": "Your session has ended: sign in again.",
        "es": "Tu sesión ha terminado: vuelve a entrar.",
    },
    "auth.sso": {"en": "Sign in with your company account", "es": "Entrar con la cuenta de la empresa"},
    "auth.sso_refused": {
        "en": "Your company account has no active SkillNet user; ask HR to add you.",
        "es": "Tu cuenta de empresa no tiene un usuario activo en SkillNet; pide a RR. HH. que te dé de alta.",
    },
    "auth.not_available": {"en": "Not available", "es": "No disponible"},
    "auth.not_for_your_role": {
        "en": "This page is not available for your role.",
        "es": "Esta página no está disponible para tu rol.",
    },
    "auth.role_admin": {"en": "HR admin", "es": "Administración de RR. HH."},
    "auth.role_employee": {"en": "Employee", "es": "Empleado/a"},
    "nav.section_admin": {"en": "Organisation", "es": "Organización"},
    "nav.section_employee": {"en": "Learn", "es": "Aprender"},
    "nav.home": {"en": "Home", "es": "Inicio"},
    "nav.my_courses": {"en": "My courses", "es": "Mis cursos"},
    "nav.course_player": {"en": "Course player", "es": "Curso"},
    "nav.reviews": {"en": "Reviews", "es": "Repasos"},
    "nav.tutor": {"en": "Tutor", "es": "Tutor"},
    "nav.helpdesk": {"en": "Helpdesk", "es": "Ayuda"},
    "nav.my_tickets": {"en": "My tickets", "es": "Mis tickets"},
    "nav.knowledge_gaps": {"en": "Knowledge gaps", "es": "Lagunas de conocimiento"},
    "nav.operations": {"en": "Operations", "es": "Operaciones"},
    "nav.overview": {"en": "Overview", "es": "Resumen"},
    "nav.skills_matrix": {"en": "Skills matrix", "es": "Matriz de habilidades"},
    "nav.skill_gaps": {"en": "Skill gaps", "es": "Brechas de habilidades"},
    "nav.course_stats": {"en": "Course statistics", "es": "Estadísticas de cursos"},
    "nav.employees": {"en": "Employees", "es": "Empleados"},
    "nav.content_studio": {"en": "Content studio", "es": "Estudio de contenidos"},
    "nav.admin_assistant": {"en": "Admin assistant", "es": "Asistente de administración"},
    "nav.helpdesk_tickets": {"en": "Helpdesk tickets", "es": "Tickets de ayuda"},
    "nav.retrieval_lab": {"en": "Retrieval lab", "es": "Laboratorio de búsqueda"},
}
