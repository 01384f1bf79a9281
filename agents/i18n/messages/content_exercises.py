"""Exercises the offline twin writes from source text (in the source's language): prompts, explanations,
the practical case's and the dialogue's lines."""
MESSAGES = {
    "content.exercise.tf_prompt": {"en": "True or false?", "es": "¿Verdadero o falso?"},
    "content.exercise.fb_prompt": {
        "en": "Fill in the blank with the right term.",
        "es": "Completa la frase con el término correcto."},
    "content.exercise.order_prompt": {"en": "Put the steps in order: “{h}”.", "es": "Ordena los pasos: «{h}»."},
    "content.exercise.test_prompt": {
        "en": "Which term completes the sentence? «{s}»",
        "es": "¿Qué término completa la frase? «{s}»"},
    "content.exercise.case_prompt": {"en": "Practical case: {h}", "es": "Caso práctico: {h}"},
    "content.exercise.dialogue_prompt": {"en": "Conversation: {h}", "es": "Conversación: {h}"},
    "content.exercise.says": {"en": "The source says: «{q}» {c}", "es": "La fuente dice: «{q}» {c}"},
    "content.exercise.changed": {
        "en": "False: the source says «{q}» {c}",
        "es": "Falso: la fuente dice «{q}» {c}"},
    "content.exercise.order_expl": {
        "en": "This is the order of the “{h}” procedure {c}",
        "es": "Es el orden del procedimiento «{h}» {c}"},
    "content.exercise.case": {
        "en": "{who} brings you a situation about “{h}”: {fact} What would you do, step by step?",
        "es": "{who} te plantea una situación relacionada con «{h}»: {fact} ¿Qué harías, paso a paso?"},
    "content.exercise.case_plain": {
        "en": "You must handle a “{h}” situation at work: {fact} How would you act?",
        "es": "Tienes que resolver una situación de «{h}» en tu trabajo: {fact} ¿Cómo actuarías?"},
    "content.exercise.customer": {"en": "A customer", "es": "Un cliente"},
    "content.exercise.colleague": {"en": "A colleague", "es": "Un compañero"},
    "content.exercise.d_customer": {"en": "Customer", "es": "Cliente"},
    "content.exercise.d_colleague": {"en": "Colleague", "es": "Compañero"},
    "content.exercise.d_open": {
        "en": "Hi, I need help with this: {h}. What do we do?",
        "es": "Hola, necesito ayuda con esto: {h}. ¿Qué hacemos?"},
    "content.exercise.d_next": {"en": "All right. And then?", "es": "De acuerdo. ¿Y después?"},
    "content.exercise.d_ok": {
        "en": "Right, that is the step the procedure gives.",
        "es": "Correcto, es el paso que indica el procedimiento."},
    "content.exercise.d_done": {
        "en": "Right: you completed the procedure.",
        "es": "Correcto: has completado el procedimiento."},
    "content.exercise.d_wrong": {
        "en": "Not yet: according to the procedure, the next step is «{s}».",
        "es": "Todavía no: según el procedimiento, ahora toca «{s}»."},
    "content.exercise.case_expl": {
        "en": "A good answer follows the “{h}” procedure {c}",
        "es": "La respuesta debe seguir el procedimiento «{h}» {c}"},
}
