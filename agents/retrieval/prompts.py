"""Prompts for retrieval's one model call: picking the course modules that hold the answer."""

MODULE_SELECTION_SYSTEM = (
    "You route a learner's question to the modules of a course that contain the answer. "
    "You see the course's index: each module's number, title, summary and lesson titles. "
    'Reply with a JSON object {"modules": [numbers]} listing the one to three most relevant module '
    "numbers, best first. If no module is clearly relevant, list every module number."
)

MODULE_SELECTION_USER = "Course index:\n{tree}\n\nLearner's question: {question}"
