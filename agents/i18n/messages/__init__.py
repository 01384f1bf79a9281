"""One module per area; each holds ``MESSAGES = {"<area>.<id>": {"en": ..., "es": ..., "vi"?: ...}}``.

Areas: common (shared words, enum codes as ``code.<kind>.<code>``), auth, tutor, learning, content,
helpdesk, admin, retrieval, ops; a large area is split by what its texts cover (content_jobs, content_review,
helpdesk_tickets, admin_pages…). Add to the file that covers yours; ids are unique across files.
"""
