-- The admin assistant's stored tool calls take the shape of its live ones (issue 27: one ToolCall type from the
-- node to the screen): {tool, arguments, result: {rows, figures, other tables}, result_count}. Until now a stored
-- call spread its result beside tool and arguments, with its other tables under "tables".
UPDATE chat_messages AS m
SET metadata = jsonb_set(m.metadata, '{tool_calls}', (
    SELECT jsonb_agg(
        CASE WHEN call ? 'result' THEN call ELSE jsonb_build_object(
            'tool', call -> 'tool',
            'arguments', call -> 'arguments',
            'result_count', call -> 'result_count',
            'result', (call - 'tool' - 'arguments' - 'result_count' - 'tables') || coalesce(call -> 'tables', '{}')
        ) END ORDER BY position)
    FROM jsonb_array_elements(m.metadata -> 'tool_calls') WITH ORDINALITY AS calls (call, position)
))
FROM chat_sessions AS s
WHERE s.id = m.session_id AND s.agent_type = 'admin' AND m.role = 'assistant'
    AND jsonb_typeof(m.metadata -> 'tool_calls') = 'array' AND jsonb_array_length(m.metadata -> 'tool_calls') > 0;
