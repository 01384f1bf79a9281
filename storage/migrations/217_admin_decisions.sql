-- The admin assistant stored a click on Confirm or Cancel as a user message ("✔ Confirm", "✖ Cancelar"): a
-- message the admin never typed. The decision now rides on the reply that followed it (metadata.decision,
-- "confirm" or "cancel"), and the page marks the preview it answered. A typed "sí" or "no" stays the admin's
-- own message; its reply gets the decision too. A confirm that wrote nothing (a stale id) marks nothing.
WITH answers AS (
    SELECT m.id, m.session_id, m.created_at, m.content,
        CASE WHEN m.metadata ->> 'confirm' IS NOT NULL THEN 'confirm' ELSE 'cancel' END AS decision
    FROM chat_messages AS m
    JOIN chat_sessions AS s ON s.id = m.session_id
    WHERE s.agent_type = 'admin' AND m.role = 'user'
        AND (m.metadata ->> 'confirm' IS NOT NULL OR m.metadata ->> 'cancel' = 'true')
), replies AS (
    SELECT a.decision, (
        SELECT r.id FROM chat_messages AS r
        WHERE r.session_id = a.session_id AND r.role = 'assistant' AND r.created_at > a.created_at
        ORDER BY r.created_at LIMIT 1
    ) AS reply_id
    FROM answers AS a
)
UPDATE chat_messages AS r
SET metadata = r.metadata || jsonb_build_object('decision', p.decision)
FROM replies AS p
WHERE r.id = p.reply_id AND NOT r.metadata ? 'decision'
    AND (p.decision = 'cancel' OR jsonb_array_length(coalesce(r.metadata -> 'executed', '[]')) > 0);

DELETE FROM chat_messages AS m
USING chat_sessions AS s
WHERE s.id = m.session_id AND s.agent_type = 'admin' AND m.role = 'user'
    AND m.content IN ('✔ Confirm', '✔ Confirmar', '✖ Cancel', '✖ Cancelar')
    AND (m.metadata ->> 'confirm' IS NOT NULL OR m.metadata ->> 'cancel' = 'true');
