"""The helpdesk agent: a supervisor that searches, asks, proposes, drafts and files only on confirm."""
