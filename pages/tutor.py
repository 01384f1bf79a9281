"""Employee page: the tutor chat (Gradio, embedded and signed in as you)."""
from ui.session import require_user
from ui.tutor_chat import embed_tutor

user = require_user()
embed_tutor(user)
