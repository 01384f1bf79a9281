"""The admin assistant and the admin pages (overview, skills matrix, gaps, course statistics, employees,
retrieval lab)."""
MESSAGES = {
    "admin.still_pending": {
        "en": "This change is still waiting for you: {preview}\nConfirm it (the button, or type “yes”) or "
              "cancel it (“no”) before asking for something else.",
        "es": "Este cambio sigue esperando tu respuesta: {preview}\nConfírmalo (el botón, o escribe «sí») o "
              "cancélalo («no») antes de pedir otra cosa."},
    "admin.nothing_pending": {"en": "There is nothing waiting for a confirmation; nothing was changed.",
                              "es": "No hay nada pendiente de confirmar; no se cambió nada."},
}
