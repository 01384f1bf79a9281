"""The model engine as people see it: output-gate notices, fallback reasons, the probe's engine card.

``code.fallback.*`` lives here rather than in common.py: only the engine gates produce these codes.
"""

MESSAGES = {
    "engine.fallback_notice": {
        "en": "The model's answer was not usable ({reason}), so this answer was built without it.",
        "es": "La respuesta del modelo no era válida ({reason}); esta respuesta se ha elaborado sin él.",
    },
    "engine.low_confidence": {
        "en": "Some of this answer is not backed by the cited sources: check them.",
        "es": "Parte de esta respuesta no se apoya en las fuentes citadas: compruébalas.",
    },
    # which engine answered, as captions name it (a model's own name is shown as it is)
    "code.engine.offline": {"en": "offline", "es": "sin modelo"},
    "code.engine.rules": {"en": "rules", "es": "reglas"},
    "engine.card.title": {"en": "Model engine", "es": "Motor del modelo"},
    "engine.card.offline": {
        "en": "No model configured: every agent answers with its offline engine.",
        "es": "Sin modelo configurado: todos los agentes responden con su motor sin modelo.",
    },
    "engine.card.unreachable": {
        "en": "{model} is configured but its server does not answer; the offline engine answers.",
        "es": "{model} está configurado pero su servidor no responde; responde el motor sin modelo.",
    },
    "engine.card.summary": {
        "en": "{model} · {speed} tokens/s · first token {ttft} s · context {context} tokens",
        "es": "{model} · {speed} tokens/s · primer token {ttft} s · contexto {context} tokens",
    },
    "engine.card.features": {
        "en": "Streaming {streaming} · JSON mode {json_mode} · tool calling {tool_calling} · usage {usage}",
        "es": "Streaming {streaming} · modo JSON {json_mode} · herramientas {tool_calling} · uso {usage}",
    },
    "engine.card.yes": {"en": "yes", "es": "sí"},
    "engine.card.no": {"en": "no", "es": "no"},
    "engine.card.no_tools": {
        "en": "The model can't call tools: the admin assistant plans with its offline twin and the model only phrases the answer.",
        "es": "El modelo no sabe llamar herramientas: el asistente planifica con su gemelo sin modelo y el modelo solo redacta la respuesta.",
    },
    "engine.card.slow": {
        "en": "Slow model: shorter answers, less context and earlier deadlines.",
        "es": "Modelo lento: respuestas más cortas, menos contexto y plazos más cortos.",
    },
    "code.fallback.loop": {"en": "it repeated itself", "es": "se repetía"},
    "code.fallback.length": {"en": "it ran past its length budget", "es": "superaba la longitud prevista"},
    "code.fallback.language": {"en": "wrong language", "es": "idioma equivocado"},
    "code.fallback.no_citation": {"en": "it cited no source", "es": "no citaba ninguna fuente"},
    "code.fallback.timeout": {"en": "it was too slow", "es": "tardaba demasiado"},
    "code.fallback.error": {"en": "the model server failed", "es": "falló el servidor del modelo"},
    "code.fallback.empty": {"en": "it was empty", "es": "estaba vacía"},
    # an off-topic reply that is not the redirect it should be (agents/tutor/redirect_check.py)
    "code.fallback.source_claim": {
        "en": "it claimed a document said something",
        "es": "atribuía algo a un documento",
    },
    "code.fallback.echo": {"en": "it repeated the question", "es": "repetía la pregunta"},
    "code.fallback.instructions": {"en": "it talked about its instructions", "es": "hablaba de sus instrucciones"},
    "code.fallback.no_redirect": {
        "en": "it did not lead back to your training",
        "es": "no te devolvía a tu formación",
    },
    # a chitchat reply that is not a short reply to what was said (agents/tutor/chitchat_check.py)
    "code.fallback.identity": {"en": "it said it was another assistant", "es": "decía ser otro asistente"},
    "code.fallback.unasked": {
        "en": "it said things you had not asked about",
        "es": "contaba cosas que no habías preguntado",
    },
    # a progress reply that states what the learner's record does not hold (agents/tutor/progress_check.py)
    "code.fallback.figure": {
        "en": "it gave figures that are not in your record",
        "es": "daba cifras que no están en tu historial",
    },
    "code.fallback.date": {
        "en": "it gave a date that is not in your record",
        "es": "daba una fecha que no está en tu historial",
    },
    "code.fallback.not_in_record": {
        "en": "it named a course or lesson that is not in your record",
        "es": "nombraba un curso o una lección que no están en tu historial",
    },
    "code.fallback.off_question": {
        "en": "it did not speak to what you asked",
        "es": "no hablaba de lo que preguntaste",
    },
    "code.fallback.unanswered": {"en": "it left out what you asked", "es": "dejaba fuera lo que preguntaste"},
    "code.fallback.no_tool_call": {"en": "it called no tool", "es": "no llamó a ninguna herramienta"},
    "code.fallback.invalid_args": {"en": "invalid tool arguments", "es": "argumentos de herramienta no válidos"},
    "code.fallback.ungrounded": {
        "en": "it named things not in the results",
        "es": "mencionaba datos que no están en los resultados",
    },
    "code.fallback.contract": {
        "en": "it did not follow the content rules",
        "es": "no cumplía las reglas del contenido",
    },
}
