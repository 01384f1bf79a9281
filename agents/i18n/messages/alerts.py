"""HR alerts computed from learning data (agents/insights/alerts.py): the detail line of each kind."""

MESSAGES = {
    "alerts.overdue": {
        "en": "{days, plural, one {# day} other {# days}} overdue (deadline {deadline}); progress {progress}",
        "es": "Venció hace {days, plural, one {# día} other {# días}} (fecha límite {deadline}); progreso {progress}",
    },
    "alerts.deadline_at_risk": {
        "en": "{days, plural, one {# day} other {# days}} left (deadline {deadline}) at {progress} progress",
        "es": "{days, plural, one {Queda # día} other {Quedan # días}} (fecha límite {deadline}) y el progreso es {progress}",
    },
    "alerts.repeated_failures": {
        "en": "{streak, plural, one {# failure} other {# consecutive failures}} on “{prompt}”",
        "es": "{streak, plural, one {# fallo} other {# fallos seguidos}} en «{prompt}»",
    },
    "alerts.inactive": {
        "en": "No activity for {days, plural, one {# day} other {# days}}",
        "es": "Sin actividad desde hace {days, plural, one {# día} other {# días}}",
    },
}
