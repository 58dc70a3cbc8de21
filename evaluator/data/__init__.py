"""The strength tables, generated from the rules and shipped (``python -m evaluator.tables``)."""
