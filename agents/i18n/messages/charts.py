"""Words plotly.js writes itself (box-plot hover labels, the chart toolbar's tooltips), keyed
``chart.<word>``; ``agents.i18n.plotly_config`` hands them to plotly.js with each chart."""

MESSAGES = {
    "chart.median": {"en": "median:", "es": "mediana:"},
    "chart.q1": {"en": "q1:", "es": "primer cuartil:"},
    "chart.q3": {"en": "q3:", "es": "tercer cuartil:"},
    "chart.min": {"en": "min:", "es": "mín.:"},
    "chart.max": {"en": "max:", "es": "máx.:"},
    "chart.mean": {"en": "mean:", "es": "media:"},
    "chart.lower_fence": {"en": "lower fence:", "es": "límite inferior:"},
    "chart.upper_fence": {"en": "upper fence:", "es": "límite superior:"},
    "chart.download_png": {"en": "Download plot as a PNG", "es": "Descargar el gráfico como PNG"},
    "chart.zoom": {"en": "Zoom", "es": "Ampliar una zona"},
    "chart.pan": {"en": "Pan", "es": "Desplazar"},
    "chart.zoom_in": {"en": "Zoom in", "es": "Acercar"},
    "chart.zoom_out": {"en": "Zoom out", "es": "Alejar"},
    "chart.autoscale": {"en": "Autoscale", "es": "Escala automática"},
    "chart.reset_axes": {"en": "Reset axes", "es": "Restablecer los ejes"},
    "chart.box_select": {"en": "Box Select", "es": "Seleccionar con un rectángulo"},
    "chart.lasso_select": {"en": "Lasso Select", "es": "Seleccionar con un lazo"},
}
