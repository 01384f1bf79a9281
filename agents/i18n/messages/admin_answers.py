"""The admin assistant: a person's progress in one course, courses nobody is enrolled in, deadlines moved later
("one more week"), and why a whole department isn't deactivated at once (its other texts are in admin.py)."""

MESSAGES = {
    "admin.reply.enrollment": {
        "en": "{name} in “{title}”: {status}, {progress} done{due}{score}.",
        "es": "{name} en «{title}»: {status}, {progress} hecho{due}{score}.",
    },
    "admin.reply.enrollment_overdue": {"en": " (past the deadline)", "es": " (fuera de plazo)"},
    "admin.reply.enrollment_score": {"en": ", score {score}", "es": ", nota {score}"},
    "admin.reply.not_enrolled": {
        "en": "{name} is not enrolled in “{title}”.",
        "es": "{name} no está inscrito/a en «{title}».",
    },
    "admin.reply.courses_nobody_enrolled": {
        "en": "{n, plural, one {# course has} other {# courses have}} nobody enrolled: {courses}.",
        "es": "{n, plural, one {# curso no tiene} other {# cursos no tienen}} a nadie inscrito: {courses}.",
    },
    "admin.reply.every_course_taken": {
        "en": "Every course has someone enrolled.",
        "es": "Todos los cursos tienen a alguien inscrito.",
    },
    "admin.write.move_no_course": {
        "en": "{names}: no open course with a deadline to move; tell me which course.",
        "es": "{names}: ningún curso abierto con fecha límite que mover; dime qué curso.",
    },
    "admin.write.move_which_course": {
        "en": "{names}: more than one open course has a deadline; which one?",
        "es": "{names}: hay más de un curso abierto con fecha límite; ¿cuál?",
    },
    "admin.write.extend_what": {
        "en": "Extend the deadline in “{title}” by {amount}: "
        "{n, plural, one {# enrollment changes} other {# enrollments change}}.",
        "es": "Ampliar el plazo de «{title}» {amount}: "
        "{n, plural, one {cambia # inscripción} other {cambian # inscripciones}}.",
    },
    "admin.write.amount_days": {
        "en": "{n, plural, one {# day} other {# days}}",
        "es": "{n, plural, one {# día} other {# días}}",
    },
    "admin.write.amount_months": {
        "en": "{n, plural, one {# month} other {# months}}",
        "es": "{n, plural, one {# mes} other {# meses}}",
    },
    "admin.write.move_what": {
        "en": "Change the deadline in “{title}”: {n, plural, one {# enrollment changes} other {# enrollments change}}.",
        "es": "Cambiar la fecha límite de «{title}»: "
        "{n, plural, one {cambia # inscripción} other {cambian # inscripciones}}.",
    },
    "admin.write.extend_not_enrolled": {
        "en": "{name}: not enrolled in this course; no deadline to extend.",
        "es": "{name}: no está inscrito/a en este curso; no hay plazo que ampliar.",
    },
    "admin.write.extend_no_deadline": {
        "en": "{name}: {state}, with no deadline to extend.",
        "es": "{name}: {state}, sin fecha límite que ampliar.",
    },
    "admin.write.deactivate_one_at_a_time": {
        "en": "Deactivating is done one person at a time, so nothing was prepared for {department}: tell me who.",
        "es": "Las bajas se dan de una persona en una, así que no he preparado nada para {department}: dime a quién.",
    },
    "admin.reply.pending_courses": {
        "en": "{scope}: {people, plural, one {# person has} other {# people have}} courses to finish: "
        "{n, plural, one {# enrolment} other {# enrolments}} not finished, in "
        "{titles, plural, one {# course} other {# different courses}}. {listing}",
        "es": "{scope}: {people, plural, one {# persona tiene} other {# personas tienen}} cursos por terminar: "
        "{n, plural, one {# inscripción} other {# inscripciones}} sin acabar, en "
        "{titles, plural, one {# curso} other {# cursos distintos}}. {listing}",
    },
    "admin.reply.pending_courses_none": {
        "en": "{scope}: nobody has a course left to finish.",
        "es": "{scope}: nadie tiene cursos por terminar.",
    },
    "admin.reply.past_due": {"en": ", overdue", "es": ", vencido"},
    "admin.reply.whole_organisation": {"en": "The whole organisation", "es": "Toda la organización"},
    "admin.write.extend_from_today": {
        "en": "{name}: overdue since {before}; {amount} from today: deadline {before} → {after} (keeps {state}).",
        "es": "{name}: vencido desde el {before}; {amount} desde hoy: fecha límite {before} → {after} "
        "(conserva {state}).",
    },
    "admin.write.weekend": {"en": " — a weekend day", "es": " — cae en fin de semana"},
    "admin.write.assign_draft": {
        "en": "Note: “{title}” is a draft, not yet published.",
        "es": "Ojo: «{title}» es un borrador, aún sin publicar.",
    },
    "admin.reply.person_gaps": {
        "en": "{name} ({role}): SkillNet keeps no list of the skills a role needs, so I compared them with what "
        "their open courses aim at and what their colleagues know. {found}",
        "es": "{name} ({role}): SkillNet no guarda qué habilidades pide cada puesto, así que lo comparo con lo que "
        "piden sus cursos abiertos y lo que saben sus compañeros. {found}",
    },
    "admin.reply.person_gaps_courses": {
        "en": "Their courses aim higher: {items}.",
        "es": "Sus cursos piden más: {items}.",
    },
    "admin.reply.person_gap_course": {
        "en": "{skill} {target}, now {level} ({course})",
        "es": "{skill} {target}, ahora {level} ({course})",
    },
    "admin.reply.person_gaps_colleagues": {
        "en": "People in {department} know what they don't, or know it better: {items}.",
        "es": "En {department} saben lo que no sabe, o lo saben mejor: {items}.",
    },
    "admin.reply.person_gap_known": {
        "en": "{skill} ({n, plural, one {# colleague} other {# colleagues}}, up to {best})",
        "es": "{skill} ({n, plural, one {# compañero} other {# compañeros}}, hasta {best})",
    },
    "admin.reply.person_gaps_none": {
        "en": "Nothing missing: they reach what their courses aim at, and no colleague knows more.",
        "es": "No le falta nada: llega a lo que piden sus cursos y ningún compañero sabe más.",
    },
    "admin.reply.gaps_no_expert": {
        "en": "{n, plural, one {# skill has} other {# skills have}} no expert: {gaps}.",
        "es": "{n, plural, one {# habilidad no tiene} other {# habilidades no tienen}} ningún experto: {gaps}.",
    },
    "admin.nearest.delete_course": {
        "en": "Courses aren't deleted in SkillNet: their enrolments and results stay on record. The nearest I can "
        "do is archive “{course}”: it leaves the catalogue and nobody new can be enrolled. Say “archive it” and "
        "I'll show you what would change before anything is done.",
        "es": "En SkillNet los cursos no se borran: sus inscripciones y resultados se conservan. Lo más parecido que "
        "puedo hacer es archivar «{course}»: sale del catálogo y nadie más puede inscribirse. Di «archívalo» y te "
        "enseño qué cambiaría antes de hacer nada.",
    },
    "admin.nearest.unenrol": {
        "en": "I can't take someone off a course here: their enrolment and progress stay on record. The nearest I "
        "can do for {name} in “{course}”: show how they're doing in it, or move their deadline.",
        "es": "Desde aquí no puedo quitar a nadie de un curso: su inscripción y su progreso se conservan. Lo más "
        "parecido que puedo hacer con {name} en «{course}»: enseñarte cómo lo lleva o cambiarle la fecha límite.",
    },
    "admin.nearest.manager": {
        "en": "SkillNet doesn't record who reports to whom. The nearest I can show is {name}'s record: department, "
        "job title, courses and skills.",
        "es": "SkillNet no guarda quién depende de quién. Lo más parecido que puedo enseñarte es la ficha de "
        "{name}: departamento, puesto, cursos y habilidades.",
    },
    "admin.nearest.person": {
        "en": "I can't do that here. The nearest I can do for {name}: show their record (courses, skills), their "
        "alerts or what they're missing, assign them a course or set a skill level.",
        "es": "Eso no puedo hacerlo aquí. Lo más parecido que puedo hacer con {name}: enseñarte su ficha (cursos, "
        "habilidades), sus alertas o lo que le falta, asignarle un curso o fijarle un nivel.",
    },
    "admin.nearest.course": {
        "en": "I can't do that here. The nearest I can do for “{course}”: its statistics (who has finished, "
        "scores, hardest exercises), who is behind on it, assign it or archive it.",
        "es": "Eso no puedo hacerlo aquí. Lo más parecido que puedo hacer con «{course}»: sus estadísticas (quién "
        "lo ha terminado, notas, ejercicios más difíciles), quién va retrasado, asignarlo o archivarlo.",
    },
    "admin.nearest.department": {
        "en": "I can't do that here. The nearest I can do for {department}: list its people, their skills, their "
        "unfinished courses or its alerts, or assign a course to all of them.",
        "es": "Eso no puedo hacerlo aquí. Lo más parecido que puedo hacer con {department}: listar su gente, sus "
        "habilidades, sus cursos sin terminar o sus alertas, o asignarles un curso a todos.",
    },
    "admin.reply.team_skills": {
        "en": "{department} — {n, plural, one {# person} other {# people}} and the skills they hold: {people}.",
        "es": "{department} — {n, plural, one {# persona} other {# personas}} y las habilidades que tienen: {people}.",
    },
    "admin.reply.more_skills": {"en": "{n} more", "es": "{n} más"},
    "admin.reply.mentorship_skill": {
        "en": "{n, plural, one {# mentoring pair} other {# mentoring pairs}} in {skill}: {pairs}.",
        "es": "{n, plural, one {# pareja de mentoría} other {# parejas de mentoría}} en {skill}: {pairs}.",
    },
    "admin.reply.mentorship_no_expert": {
        "en": "Nobody can mentor {skill} yet: no one holds it at expert level. The most advanced: {people}.",
        "es": "Nadie puede hacer de mentor en {skill} todavía: nadie lo domina a nivel experto. Quien más sabe: "
        "{people}.",
    },
    "admin.reply.mentorship_no_beginner": {
        "en": "No mentoring pairs in {skill}: nobody is a beginner in it. Its experts: {people}.",
        "es": "No hay parejas de mentoría en {skill}: nadie es principiante. Sus expertos: {people}.",
    },
}
