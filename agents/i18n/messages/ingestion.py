"""Documents ingested in the background (content studio, retrieval lab): status and progress."""

MESSAGES = {
    "ingestion.heading": {"en": "Recent uploads", "es": "Subidas recientes"},
    "ingestion.job_documents": {"en": "{n} + {uploads} uploading", "es": "{n} + {uploads} en ingesta"},
    "ingestion.tab": {"en": "Documents", "es": "Documentos"},
    "ingestion.admins_only": {
        "en": "Only HR admins can upload documents.",
        "es": "Solo los administradores de RR. HH. pueden subir documentos.",
    },
    "ingestion.upload": {
        "en": "Upload documents to search and learn from (PDF, DOCX, Markdown, text, HTML)",
        "es": "Sube documentos para buscar y aprender de ellos (PDF, DOCX, Markdown, texto, HTML)",
    },
    "ingestion.start": {"en": "Ingest", "es": "Ingerir"},
    "ingestion.queued_toast": {
        "en": "{count, plural, one {# document} other {# documents}} queued: you can keep working, progress shows below.",
        "es": "{count, plural, one {# documento} other {# documentos}} en cola: puedes seguir trabajando; el progreso se ve abajo.",
    },
    "ingestion.status.queued": {"en": "queued", "es": "en cola"},
    "ingestion.status.parsing": {"en": "reading the file", "es": "leyendo el archivo"},
    "ingestion.status.embedding": {"en": "embedding passages", "es": "vectorizando pasajes"},
    "ingestion.status.done": {"en": "ready", "es": "listo"},
    "ingestion.status.unchanged": {"en": "already ingested (same content)", "es": "ya estaba (mismo contenido)"},
    "ingestion.status.failed": {"en": "failed", "es": "falló"},
    "ingestion.progress": {
        "en": "{pages} pages parsed · {embedded} of {total} passages embedded",
        "es": "{pages} páginas leídas · {embedded} de {total} pasajes vectorizados",
    },
    "ingestion.searchable_text": {
        "en": "Searchable by its words already; by meaning as its passages are embedded.",
        "es": "Ya se encuentra por sus palabras; por significado, a medida que se vectorizan sus pasajes.",
    },
    "ingestion.previous_kept": {
        "en": "The previous version stays in use until this one is complete.",
        "es": "La versión anterior sigue en uso hasta que esta termine.",
    },
    "ingestion.failed_kept": {
        "en": "Nothing changed: the previous version (if any) is still in use.",
        "es": "No ha cambiado nada: la versión anterior (si la había) sigue en uso.",
    },
    "ingestion.embedding_waiting": {
        "en": "The embedding server is not answering: the upload waits and tries again by itself.",
        "es": "El servidor de vectorización no responde: la subida espera y lo vuelve a intentar sola.",
    },
    "ingestion.embedding_failed": {
        "en": "{name}: the embedding server failed; try the upload again in a moment.",
        "es": "{name}: falló el servidor de vectorización; vuelve a subirlo dentro de un momento.",
    },
    "ingestion.waiting_job": {
        "en": "The generation starts when its uploaded documents are ingested.",
        "es": "La generación empezará cuando sus documentos subidos estén ingeridos.",
    },
}
