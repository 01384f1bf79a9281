"""Refusals of untrusted input (caps, bad bytes, archives, rate limits) and the sanitiser's notes."""

MESSAGES = {
    "safety.too_long": {
        "en": "That text is too long: the limit is {limit} characters. Nothing was saved.",
        "es": "Ese texto es demasiado largo: el límite es de {limit} caracteres. No se guardó nada.",
    },
    "safety.nul_byte": {
        "en": "That text contains a NUL byte (\\0), which is not allowed. Nothing was saved.",
        "es": "Ese texto contiene un byte NUL (\\0), que no se admite. No se guardó nada.",
    },
    "safety.bad_encoding": {
        "en": "That text is not valid UTF-8. Nothing was saved.",
        "es": "Ese texto no es UTF-8 válido. No se guardó nada.",
    },
    "safety.rate_limited": {
        "en": "Too many requests in a row: wait {seconds} s and try again.",
        "es": "Demasiadas solicitudes seguidas: espera {seconds} s y vuelve a intentarlo.",
    },
    "safety.not_a_uuid": {
        "en": "{value} is not a valid session or action id. Nothing was done.",
        "es": "{value} no es un identificador válido de sesión ni de acción. No se hizo nada.",
    },
    "safety.doc_decompressed_too_big": {
        "en": "{name}: the document unpacks to more than {limit_mb} MB, so it was refused. Nothing was saved.",
        "es": "{name}: el documento descomprimido ocupa más de {limit_mb} MB y se rechazó. No se guardó nada.",
    },
    "safety.doc_xml_entities": {
        "en": "{name}: the document declares XML entities (a known attack), so it was refused. Nothing was saved.",
        "es": "{name}: el documento declara entidades XML (un ataque conocido) y se rechazó. No se guardó nada.",
    },
    "safety.doc_too_many_pages": {
        "en": "{name}: more than {limit} pages, so it was refused. Nothing was saved.",
        "es": "{name}: tiene más de {limit} páginas y se rechazó. No se guardó nada.",
    },
    "safety.doc_too_many_chunks": {
        "en": "{name}: more than {limit} passages, so it was refused. Split it and try again. Nothing was saved.",
        "es": "{name}: tiene más de {limit} fragmentos y se rechazó. Divídelo y vuelve a intentarlo. "
        "No se guardó nada.",
    },
    "safety.doc_unsupported_type": {
        "en": "{name}: '{suffix}' files can't be read; use PDF, DOCX, Markdown, text or HTML. Nothing was saved.",
        "es": "{name}: los archivos '{suffix}' no se pueden leer; usa PDF, DOCX, Markdown, texto o HTML. "
        "No se guardó nada.",
    },
    "safety.doc_in_flight": {
        "en": "{name}: an upload of this document is still being ingested in the background; try again once it "
        "is done. Nothing was changed.",
        "es": "{name}: una subida de este documento aún se está ingiriendo en segundo plano; vuelve a intentarlo "
        "cuando termine. No se cambió nada.",
    },
    "safety.doc_empty": {
        "en": "{name}: the file is empty. Nothing was saved.",
        "es": "{name}: el archivo está vacío. No se guardó nada.",
    },
    "safety.doc_too_big": {
        "en": "{name}: {size_mb} MB, over the {limit_mb} MB limit. Nothing was saved.",
        "es": "{name}: {size_mb} MB, más que el límite de {limit_mb} MB. No se guardó nada.",
    },
    "safety.doc_no_text": {
        "en": "{name}: the document has no text to learn from. Nothing was saved.",
        "es": "{name}: el documento no tiene texto del que aprender. No se guardó nada.",
    },
    "safety.doc_not_utf8": {
        "en": "{name}: the text is not UTF-8; save it as UTF-8 and upload it again.",
        "es": "{name}: el texto no está en UTF-8; guárdalo como UTF-8 y vuelve a subirlo.",
    },
    "safety.doc_pdf_encrypted": {
        "en": "{name}: the PDF is password-protected; remove the password and upload it again.",
        "es": "{name}: el PDF tiene contraseña; quítasela y vuelve a subirlo.",
    },
    "safety.doc_pdf_no_pages": {
        "en": "{name}: the PDF has no pages. Nothing was saved.",
        "es": "{name}: el PDF no tiene páginas. No se guardó nada.",
    },
    "safety.doc_pdf_no_text": {
        "en": "{name}: the PDF has no text layer (a scan?); run OCR on it first. Nothing was saved.",
        "es": "{name}: el PDF no tiene capa de texto (¿un escaneo?); pásale un OCR primero. No se guardó nada.",
    },
    "safety.doc_unreadable": {
        "en": "{name}: the file could not be read ({reason}). Nothing was saved.",
        "es": "{name}: no se pudo leer el archivo ({reason}). No se guardó nada.",
    },
    "safety.flagged_heading": {
        "en": "Passages flagged as instructions",
        "es": "Fragmentos marcados como instrucciones",
    },
    "safety.flagged_caption": {
        "en": "Sentences of your documents that read like instructions to an assistant. They were taken out of "
        "the passages at ingestion, so answers, lessons, suggestions and tickets never quote them.",
        "es": "Frases de tus documentos que parecen instrucciones para un asistente. Se quitaron de los fragmentos "
        "al ingerirlos, así que respuestas, lecciones, sugerencias y tickets nunca las citan.",
    },
    "safety.flagged_none": {
        "en": "No passage of your documents was flagged.",
        "es": "Ningún fragmento de tus documentos se marcó.",
    },
    "code.attack.override": {"en": "override order", "es": "orden de anular"},
    "code.attack.system_marker": {"en": "fake system marker", "es": "marcador de sistema falso"},
    "code.attack.pre_approved": {"en": "“pre-approved” claim", "es": "supuesta aprobación previa"},
    "code.attack.role_play": {"en": "role play", "es": "juego de rol"},
    "code.attack.confirmation": {"en": "demanded confirmation", "es": "confirmación exigida"},
    "code.attack.hidden_action": {"en": "hidden action", "es": "acción oculta"},
}
