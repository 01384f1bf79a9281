"""One module per area; each holds ``MESSAGES = {"<area>.<id>": {"en": ..., "es": ..., "vi"?: ...}}``.

Areas: common (shared words, enum codes as ``code.<kind>.<code>``), auth, tutor, learning, content,
helpdesk, admin, retrieval, ops. Add to your area's file; ids are unique across files.
"""
