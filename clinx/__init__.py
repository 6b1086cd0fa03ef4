"""clinx — de-identify medical image + text data without destroying its value."""

__version__ = "0.1.0"
