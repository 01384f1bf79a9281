"""HR alerts computed from learning data (agents/learning/alerts.py): the detail line of each kind."""
MESSAGES = {
    "alerts.overdue": {"en": "{days} days overdue (deadline {deadline}); progress {progress}",
                       "es": "Venció hace {days} días (fecha límite {deadline}); progreso {progress}"},
    "alerts.deadline_at_risk": {"en": "{days} days left (deadline {deadline}) at {progress} progress",
                                "es": "Quedan {days} días (fecha límite {deadline}) y el progreso es {progress}"},
    "alerts.repeated_failures": {"en": "{streak} consecutive failures on “{prompt}”",
                                 "es": "{streak} fallos seguidos en «{prompt}»"},
    "alerts.inactive": {"en": "No activity for {days} days", "es": "Sin actividad desde hace {days} días"},
}
