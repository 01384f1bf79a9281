-- A tutor answer the learner marked "didn't help" (👎) or helpful (👍) (issue 32): a question whose answer didn't
-- help counts as a knowledge-gap signal, like one no document answered (storage/gaps.py).
ALTER TABLE chat_messages ADD COLUMN IF NOT EXISTS helpful boolean;
