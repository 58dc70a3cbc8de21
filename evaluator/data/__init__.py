"""The strength tables, generated from the rules and shipped.

``python -m fantasyland.evaluator.tables`` writes them.
"""
