"""The demo's learning history (seeds/activity.py): what seeded learners answered and were told."""

MESSAGES = {
    "seeds.unsure_answer": {"en": "not sure", "es": "no lo sé"},
    "seeds.feedback_not_yet": {
        "en": "Not quite yet: review the lesson and try again.",
        "es": "No es correcto todavía: repasa la lección y vuelve a intentarlo.",
    },
}
