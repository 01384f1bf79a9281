"""Employee page: the tutor chat (Gradio, embedded and signed in as you)."""

import streamlit as st

from agents.learning import service
from ui.deps import app_deps
from ui.session import require_user
from ui.tutor_chat import embed_tutor

user = require_user()
deps = app_deps()
service.leave_exercises(deps, user)  # the course player is closed: its exercise is no longer in progress
embed_tutor(user, session_id=st.query_params.get("session"))  # Home's recent chats open here
