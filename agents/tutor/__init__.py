"""The employee tutor: a LangGraph agent (graph.py) behind one service (service.py)."""
