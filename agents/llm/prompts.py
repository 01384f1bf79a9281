"""The conversation-memory prompt (agents/llm/memory.py), shared by the tutor and the admin assistant."""

SUMMARIZE = """Summarise this tutoring conversation in 2-3 sentences: the topics asked about and the key answers.
Write in {language_name}.

{previous}{transcript}"""
