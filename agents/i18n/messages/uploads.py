"""The words inside Streamlit's file uploader (ui/uploads.py puts them over Streamlit's English)."""

MESSAGES = {
    "uploads.button": {"en": "Upload", "es": "Subir"},
    "uploads.limit": {"en": "{size} MB per file", "es": "{size} MB por archivo"},
    "uploads.drag_one": {"en": "Drag and drop a file here", "es": "Arrastra y suelta un archivo aquí"},
    "uploads.drag_many": {"en": "Drag and drop files here", "es": "Arrastra y suelta los archivos aquí"},
    "uploads.rejected_size": {"en": "can't be uploaded: over {size} MB", "es": "no se puede subir: pasa de {size} MB"},
    "uploads.refused_type": {
        "en": "{name} is left out: only {types} files are accepted here.",
        "es": "{name} no se usa: aquí solo se aceptan archivos {types}.",
    },
}
