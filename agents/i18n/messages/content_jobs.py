"""A generation job as the content studio tells it: its events (agents/content/events.py, figures and codes filled
in the reader's language) and the graph's steps as the events name them."""

MESSAGES = {
    # a generation job's events (agents/content/events.py): figures and codes filled in the reader's language
    "content.event.queued": {
        "en": "Queued with {documents, plural, one {# document} other {# documents}}.",
        "es": "En cola con {documents, plural, one {# documento} other {# documentos}}.",
    },
    "content.event.queued_uploads": {
        "en": "Queued: {uploads, plural, one {# upload} other {# uploads}} to read first, "
        "{documents, plural, one {# document} other {# documents}} already in the library.",
        "es": "En cola: {uploads, plural, one {# subida} other {# subidas}} por leer primero, "
        "{documents, plural, one {# documento} other {# documentos}} ya en la biblioteca.",
    },
    "content.event.run": {
        "en": "A worker took the job (attempt {attempt}).",
        "es": "Un proceso tomó el trabajo (intento {attempt}).",
    },
    "content.event.themes": {
        "en": "{count, plural, one {# theme} other {# themes}} found in the sources ({engine}).",
        "es": "{count, plural, one {# tema encontrado} other {# temas encontrados}} en las fuentes ({engine}).",
    },
    "content.event.structure": {
        "en": "Course outline with {modules, plural, one {# module} other {# modules}} ({engine}).",
        "es": "Estructura del curso con {modules, plural, one {# módulo} other {# módulos}} ({engine}).",
    },
    "content.event.progress_started": {
        "en": "Writing module {index} of {total}: {current}…",
        "es": "Escribiendo el módulo {index} de {total}: {current}…",
    },
    "content.event.progress_done": {
        "en": "Module {index} of {total} written: {current}.",
        "es": "Módulo {index} de {total} escrito: {current}.",
    },
    "content.event.review_result": {
        "en": "Quality review: score {score}, {issues, plural, one {# issue} other {# issues}} ({critical} critical).",
        "es": "Revisión de calidad: puntuación {score}, {issues, plural, one {# problema} other {# problemas}} ({critical} críticos).",
    },
    "content.event.awaiting_structure": {
        "en": "Course structure ready for your review.",
        "es": "Estructura del curso lista para tu revisión.",
    },
    "content.event.awaiting_final": {
        "en": "Content written and reviewed: ready for your final approval.",
        "es": "Contenido escrito y revisado: listo para tu aprobación final.",
    },
    "content.event.refining": {
        "en": "Fixing {issues, plural, one {# issue} other {# issues}} (round {cycle} of {max_cycles}).",
        "es": "Corrigiendo {issues, plural, one {# problema} other {# problemas}} (ronda {cycle} de {max_cycles}).",
    },
    "content.event.module_regenerated": {
        "en": "Module {index} written again: {title} ({engine}).",
        "es": "Módulo {index} escrito de nuevo: {title} ({engine}).",
    },
    "content.event.edited": {"en": "Content edited by the admin.", "es": "Contenido editado por el administrador."},
    "content.event.exercise_replaced": {
        "en": "Exercise {exercise} of module {module} replaced by another.",
        "es": "Ejercicio {exercise} del módulo {module} sustituido por otro.",
    },
    "content.event.exercise_kept": {
        "en": "Exercise {exercise} of module {module} kept: its sections support no other.",
        "es": "Ejercicio {exercise} del módulo {module} conservado: sus secciones no dan para otro.",
    },
    "content.event.rejected": {"en": "Rejected by the admin.", "es": "Rechazado por el administrador."},
    "content.event.completed": {
        "en": "Published: the course and its manual.",
        "es": "Publicado: el curso y su manual.",
    },
    "content.event.retry": {"en": "Tried again from «{step}».", "es": "Reintentado desde «{step}»."},
    "content.event.error": {"en": "Stopped at «{step}»: {message}", "es": "Detenido en «{step}»: {message}"},
    "content.event.other": {"en": "Event: {kind}", "es": "Evento: {kind}"},
    # the generation graph's steps, as events name them
    "code.node.prepare_context": {"en": "preparing the sources", "es": "preparar las fuentes"},
    "code.node.extract_themes": {"en": "finding the themes", "es": "buscar los temas"},
    "code.node.design_structure": {"en": "designing the structure", "es": "diseñar la estructura"},
    "code.node.admin_review_structure": {"en": "structure review", "es": "revisión de la estructura"},
    "code.node.generate_modules": {"en": "writing the modules", "es": "escribir los módulos"},
    "code.node.generate_manual": {"en": "writing the manual", "es": "escribir el manual"},
    "code.node.review_quality": {"en": "quality review", "es": "revisión de calidad"},
    "code.node.refine_content": {"en": "fixing the issues", "es": "corregir los problemas"},
    "code.node.regenerate_module": {"en": "rewriting a module", "es": "reescribir un módulo"},
    "code.node.admin_review_final": {"en": "final review", "es": "revisión final"},
    "code.node.publish": {"en": "publishing", "es": "publicar"},
    "code.node.start": {"en": "the start", "es": "el principio"},
    "code.node.worker": {"en": "the worker", "es": "el proceso de trabajo"},
    "code.node.ingestion": {"en": "reading the uploads", "es": "leer las subidas"},
}
