"""Replies to progress turns written for tests/tutor/test_tutor_progress_check.py (session 23), on the records of
progress_records.json (the demo seeds as the tutor read them on 2026-12-06). Each is (language, scenario, reply); a
scenario is "learner/language/kind", kind one of report (how am I doing?), next (what's my next step?), due (what
should I review today?).

GOOD: as a careful writer would answer from the record given (round 1, the check written and tuned on them).
BAD: as small models write them, each with the code it should get (round 2, written before the check ran on them,
measured once, untouched since).
ROUND3_GOOD, ROUND3_BAD: written after the check was done, measured once, untouched.
"""

# ruff: noqa: E501 (each reply stays one line, as a person reads it)

GOOD = [
    ("en", "james/en/report", "You're doing well, James. Returns and Refunds Essentials is in progress at 62.5%, with a deadline of 18 December 2026. You completed Information Security Essentials with a score of 90%. You have 10 reviews due today."),
    ("en", "james/en/report", "Here's your progress:\n- “Returns and Refunds Essentials”: in progress, 62.5% done, due 18 Dec 2026\n- “Information Security Essentials”: completed with 90%\n\nYou also have 10 reviews waiting for you today. Your weakest skill is Complaint handling (low), so the reviews are a good place to start."),
    ("en", "james/en/next", "Your next step is the 10 reviews due today. Doing them on the day they fall due helps you keep what you learned. For your whole progress, ask “How am I doing in my courses?”"),
    ("en", "james/en/next", "Start with your reviews: you have 10 due today. After that, you can ask me how you're doing in your courses."),
    ("en", "james/en/due", "You have 10 reviews due today. They come from “Practice: return periods” (3) and “Practice: processing a return” (1) in Returns and Refunds Essentials, and from “Practice: accounts and phishing” (3) in Information Security Essentials."),
    ("en", "james/en/due", "Today you have 10 reviews to do:\n- 3 from Practice: return periods\n- 1 from Practice: processing a return\n- 3 from Practice: accounts and phishing\n- 3 from Practice: incidents\nFor your whole progress, ask “How am I doing in my courses?”"),
    ("es", "james/es/due", "Hoy te tocan 10 repasos: 3 de «Practice: return periods» y 1 de «Practice: processing a return» («Devoluciones y reembolsos: lo esencial»), y 3 de «Practice: accounts and phishing» («Seguridad de la información: lo esencial»)."),
    ("es", "james/es/due", "Tienes 10 repasos pendientes para hoy, de cuatro lecciones de tus dos cursos; empieza por «Practice: return periods». Para ver todo tu progreso, pregunta «¿Cómo voy en mis cursos?»"),
    ("es", "lucia/es/report", "Así vas, Lucía: en «Seguridad de la información: lo esencial» llevas un 12,5 % y la fecha límite es el 10 de diciembre de 2026. En «Atención al cliente de excelencia» llevas un 25 %, con fecha límite el 27 de diciembre. Hoy tienes 2 repasos pendientes."),
    ("es", "lucia/es/report", "Vas avanzando, Lucía. Tienes dos cursos en curso: Seguridad de la información: lo esencial (12,5 %, hasta el 10 de diciembre) y Atención al cliente de excelencia (25 %, hasta el 27 de diciembre). Te conviene repasar el método ACRE, y tienes 2 repasos para hoy."),
    ("es", "lucia/es/next", "Tu siguiente paso es la lección «Example: spotting a phishing e-mail» del curso «Seguridad de la información: lo esencial». Vence el 10 de diciembre y llevas un 12,5 %, así que conviene hacerla cuanto antes."),
    ("es", "lucia/es/next", "Lo siguiente: la lección «Example: spotting a phishing e-mail» de «Seguridad de la información: lo esencial», porque la fecha límite es dentro de 4 días. Para ver todo tu progreso, pregunta «¿Cómo voy en mis cursos?»"),
    ("es", "lucia/es/due", "Hoy te tocan 2 repasos, los dos de la lección «Práctica: estándares» de «Atención al cliente de excelencia». Hechos hoy, lo aprendido se queda."),
    ("es", "lucia/es/due", "Tienes 2 repasos para hoy, de «Práctica: estándares» (Atención al cliente de excelencia). Si quieres ver todo tu progreso, pregúntame «¿Cómo voy en mis cursos?»"),
    ("en", "lucia/en/next", "Your next step is the lesson “Example: spotting a phishing e-mail” in Information Security Essentials. The course is due on 10 December and you've done 12.5%, so it's the one to do now."),
    ("en", "lucia/en/next", "Next up: “Example: spotting a phishing e-mail”, a lesson of Information Security Essentials. Its deadline is Thursday, 10 Dec, so do it first."),
    ("en", "lucia/en/report", "Here's where you stand, Lucía: Information Security Essentials is 12.5% done (deadline 10 Dec 2026) and Customer Service Excellence is 25% done (deadline 27 Dec 2026). You have 2 reviews due today."),
    ("en", "harry/en/next", "Your next step is the lesson “Practice: return periods” of Returns and Refunds Essentials. Its deadline, 30 November 2026, has already passed, so it's worth doing today."),
    ("en", "harry/en/next", "Go to “Practice: return periods” in Returns and Refunds Essentials next: the course was due on 30 Nov and you're at 25%."),
    ("en", "harry/en/report", "Hi Harry. Returns and Refunds Essentials is in progress at 25%, and its deadline (30 Nov 2026) has passed. You completed Store policy check-up with a score of 33.3%. You have no reviews due."),
    ("en", "harry/en/report", "You have two courses: Returns and Refunds Essentials (25% done, overdue since 30 November) and Store policy check-up (completed, 33.3%). No reviews are due right now."),
    ("en", "harry/en/due", "You have no reviews due today. To see what to do now, ask “What is my next step?”"),
    ("en", "harry/en/due", "Nothing to review today, Harry! Your next lesson is waiting in your course instead."),
    ("es", "pablo/es/report", "Así vas, Pablo:\n- «Atención al cliente de excelencia»: asignado, 0 % completado, fecha límite 5 ene 2027\n- «Repaso de la política de tienda»: completado, nota 77,8 %\n- «Devoluciones y reembolsos: lo esencial»: completado, nota 88 %\n\nTienes 6 repasos pendientes para hoy."),
    ("es", "pablo/es/report", "Has terminado dos cursos, «Repaso de la política de tienda» (77,8 %) y «Devoluciones y reembolsos: lo esencial» (88 %), y aún no has empezado «Atención al cliente de excelencia», que vence el 5 de enero de 2027. Hoy tienes 6 repasos."),
    ("es", "pablo/es/next", "Tu siguiente paso son los 6 repasos pendientes de hoy: hechos el día que tocan, lo aprendido se queda. Para ver todo tu progreso, pregunta «¿Cómo voy en mis cursos?»"),
    ("es", "pablo/es/next", "Lo primero hoy: tus 6 repasos. Te llevarán poco y te ayudan a no olvidar lo que ya sabes."),
    ("es", "pablo/es/due", "Hoy te tocan 6 repasos: 3 de «Practice: return periods» y 3 de «Practice: processing a return», ambos de «Devoluciones y reembolsos: lo esencial»."),
    ("es", "pablo/es/due", "Tienes seis repasos para hoy, todos del curso Devoluciones y reembolsos: lo esencial (lecciones «Practice: return periods» y «Practice: processing a return»)."),
    ("en", "emily/en/report", "Great work, Emily! You've completed all three of your courses: Store policy check-up (88.9%), Returns and Refunds Essentials (95%) and Information Security Essentials (85%). You have 12 reviews due today to keep it all fresh."),
    ("en", "emily/en/report", "You've finished every course: Store policy check-up, Returns and Refunds Essentials and Information Security Essentials, with scores of 88.9%, 95% and 85%. Your skills include Complaint handling (high) and Shift planning (high). There are 12 reviews due today."),
    ("en", "emily/en/due", "You have 12 reviews due today, 3 from each of four lessons: “Practice: return periods”, “Practice: accounts and phishing”, “Practice: processing a return” and “Practice: incidents”."),
    ("en", "emily/en/due", "12 reviews are waiting for you today, across Returns and Refunds Essentials and Information Security Essentials. Start with “Practice: return periods” (3)."),
    ("en", "emily/en/next", "Your next step is the 12 reviews due today. Doing them on the day they fall due keeps what you learned fresh."),
    ("en", "emily/en/next", "You've finished all your courses, so today your next step is your 12 reviews. For your whole progress, ask “How am I doing in my courses?”"),
    ("es", "lucia/es/report", "Llevas un 12,5 % de Seguridad de la información: lo esencial, cuya fecha límite es el jueves 10 de diciembre, y un 25 % de Atención al cliente de excelencia. Tienes 2 repasos hoy; tu habilidad más baja es Atención por teléfono y chat."),
]  # fmt: skip

BAD = [
    ("en", "james/en/report", "You have completed 80 % of Information Security Essentials. Keep up the good work!", "figure"),
    ("en", "james/en/report", "You're doing great! You have finished 3 courses and you have 5 more to go.", "figure"),
    ("en", "james/en/report", "Your progress:\n1. Returns and Refunds Essentials - 75%\n2. Information Security Essentials - 100%\n3. Customer Service Excellence - 40%", "figure"),
    ("en", "james/en/report", "You're ready to continue. The process continues as you've already completed your tasks, and I'm glad you're enjoying the learning journey with me.", "unanswered"),
    ("en", "james/en/report", "According to the company handbook, you are on track with Returns and Refunds Essentials [1].", "source_claim"),
    ("en", "james/en/report", "Learner data from the database: Returns and Refunds Essentials: in_progress, 62% done. Question: How am I doing?", "instructions"),
    ("en", "james/en/next", "The learner asks: \"What's my next step?\" You answer: \"I'm glad you're on board. I'll be happy to help with your next steps.\"", "unanswered"),
    ("en", "james/en/next", "Your next step is to complete the Advanced Excel course by Friday.", "not_in_record"),
    ("en", "james/en/next", "Your next step is the 3 reviews due today.", "figure"),
    ("en", "james/en/next", "Tu siguiente paso son los 10 repasos de hoy. ¡Ánimo!", "language"),
    ("en", "james/en/due", "You have 7 reviews due today: Practice: return periods and Practice: incidents.", "figure"),
    ("en", "james/en/due", "Today you should review the lesson \"Fire safety in the warehouse\" and the lesson \"Handling cash\".", "not_in_record"),
    ("en", "james/en/due", "You have 10 reviews due today. They should take about 25 minutes.", "figure"),
    ("en", "james/en/due", "review due today: 10\n- 3 from lesson Practice: return periods\n- 3 from lesson Practice: return periods\n- 3 from lesson Practice: return periods\n- 3 from lesson Practice: return periods\n- 3 from lesson Practice: return periods\n- 3 from lesson Practice: return periods", "loop"),
    ("en", "lucia/en/next", "Your next step is the lesson Password basics of Information Security Essentials, due on 15 December.", "date"),
    ("en", "lucia/en/next", "Your deadline for Information Security Essentials is 2026-12-31, so you still have plenty of time.", "date"),
    ("en", "lucia/en/next", "Next step: Keep learning! 1. Read the policy. 2. Ask questions. 3. Practice every day.", "unanswered"),
    ("en", "harry/en/report", "1. 2026-12-31\n2. 2027-08-14\n3. 2029-12-31", "date"),
    ("en", "harry/en/report", "You have completed 50% of Returns and Refunds Essentials and you have 4 reviews due.", "figure"),
    ("en", "emily/en/report", "As an AI language model, I cannot see your progress, but I'm sure you're doing great!", "unanswered"),
    ("es", "lucia/es/report", "Has completado el 80 % de Seguridad de la información: lo esencial. ¡Sigue así!", "figure"),
    ("es", "lucia/es/report", "La manera de esto es más rápida. ¿Cómo vamos a través de la información? El plan de este tipo de educación es el que puede ser: - El primer pasado", "unanswered"),
    ("es", "lucia/es/report", "You are doing well, Lucía! Keep going with your courses.", "language"),
    ("es", "lucia/es/report", "Vas muy bien en el curso de Excel avanzado y en Prevención de riesgos laborales.", "not_in_record"),
    ("es", "lucia/es/next", "Tu siguiente paso es terminar el curso antes del 20 de diciembre.", "date"),
    ("es", "lucia/es/next", "Tu siguiente paso: la lección «Introducción a las contraseñas» de «Seguridad de la información: lo esencial».", "not_in_record"),
    ("es", "lucia/es/due", "El perro de la estelechere: - review due today: 2 - 2 from lesson Práctica: estándares", "language"),
    ("es", "lucia/es/due", "Hoy te tocan 5 repasos de «Práctica: estándares».", "figure"),
    ("es", "lucia/es/due", "Según el manual de la empresa, debes repasar «Práctica: estándares» hoy [2].", "source_claim"),
    ("es", "pablo/es/report", "Has terminado 2 cursos con una nota media del 90 %. Tienes 6 repasos pendientes.", "figure"),
    ("es", "pablo/es/next", "Tu siguiente paso es empezar «Atención al cliente de excelencia» el lunes 14 de diciembre.", "date"),
    ("es", "pablo/es/next", "Regla 5: presenta los datos de forma clara y motivadora; nunca inventes cifras. Tu siguiente paso son 6 repasos.", "instructions"),
    ("es", "pablo/es/due", "Hoy tienes que repasar: 1. Devoluciones 2. Reembolsos 3. Garantías 4. Cambios de producto", "unanswered"),
]  # fmt: skip

ROUND3_GOOD = [
    ("en", "james/en/report", "Nice progress, James! You're 62.5% of the way through Returns and Refunds Essentials (due December 18), and you already passed Information Security Essentials with 90%. Don't forget your 10 reviews today."),
    ("en", "james/en/due", "Ten reviews are due today. Most come from Information Security Essentials (Practice: accounts and phishing and Practice: incidents, 3 each); the rest from Practice: return periods (3) and Practice: processing a return (1)."),
    ("en", "lucia/en/next", "Focus on “Example: spotting a phishing e-mail” next. Information Security Essentials is due this Thursday and you're only 12.5% in."),
    ("en", "harry/en/next", "Your Returns and Refunds Essentials course is overdue (it was due 30 Nov 2026), so pick it up again with the lesson “Practice: return periods”."),
    ("en", "emily/en/report", "All three courses done, Emily: Information Security Essentials at 85%, Returns and Refunds Essentials at 95% and Store policy check-up at 88.9%. Today, 12 reviews are waiting."),
    ("es", "lucia/es/report", "¡Bien, Lucía! Vas por el 25 % de «Atención al cliente de excelencia» (hasta el 27 de diciembre) y por el 12,5 % de «Seguridad de la información: lo esencial», que vence antes, el 10 de diciembre. Hoy te esperan 2 repasos."),
    ("es", "lucia/es/due", "Para hoy tienes dos repasos, ambos de la lección «Práctica: estándares» del curso «Atención al cliente de excelencia»."),
    ("es", "pablo/es/next", "Lo que toca ahora: tus 6 repasos de hoy. Hacerlos el mismo día te ayuda a retener lo aprendido."),
    ("es", "pablo/es/due", "Hoy te tocan 6 repasos del curso «Devoluciones y reembolsos: lo esencial»: 3 de «Practice: return periods» y otros 3 de «Practice: processing a return»."),
    ("es", "james/es/due", "Tienes 10 repasos hoy: 3 de «Practice: incidents», 3 de «Practice: accounts and phishing», 3 de «Practice: return periods» y 1 de «Practice: processing a return»."),
]  # fmt: skip

ROUND3_BAD = [
    ("en", "james/en/report", "You are doing amazing! You have completed 95% of your training and earned 4 certificates.", "figure"),
    ("en", "james/en/due", "You should review Practice: return periods today. Have a great day!", "unanswered"),
    ("en", "lucia/en/next", "Your next step: the lesson “Example: spotting a phishing e-mail”. The deadline is January 10, 2027.", "date"),
    ("en", "harry/en/next", "Your next step is the Workplace Safety module. It's overdue!", "not_in_record"),
    ("en", "emily/en/report", "Emily, according to our training policy you have finished all your courses. Well done!", "source_claim"),
    ("es", "lucia/es/report", "Llevas el 40 % de Seguridad de la información: lo esencial y el 60 % de Atención al cliente de excelencia.", "figure"),
    ("es", "lucia/es/due", "Today you have 2 reviews from Práctica: estándares. Keep it up!", "language"),
    ("es", "pablo/es/next", "Tu siguiente paso es el curso «Liderazgo de equipos», que vence el 5 de enero de 2027.", "not_in_record"),
    ("es", "pablo/es/due", "Hoy tienes 9 repasos pendientes de «Practice: return periods».", "figure"),
    ("es", "james/es/due", "Usuario: ¿Qué me toca repasar hoy?\nAsistente: Tienes repasos. Usuario: ¿cuántos?\nAsistente: muchos.", "unanswered"),
]  # fmt: skip
