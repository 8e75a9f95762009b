"""The framework floor: Flask answering a constant small JSON, under the same gunicorn setup."""
from flask import Flask, jsonify

app = Flask("floor")


@app.post("/floor")
def floor():
    return jsonify({"valid": True, "status": "in_progress"})
