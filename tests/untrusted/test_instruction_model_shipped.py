"""The instruction filter's model ships fitted (a fresh process would otherwise spend 5-20 s of one core fitting it
before a first start can filter the demo's documents, and so would every test worker)."""

from core import instruction_model


def test_the_shipped_model_is_fitted_on_the_current_training_data():
    assert instruction_model.shipped_model() is not None, "run `python -m core.instruction_model` and commit its file"
