"""The shipped learned models, one file a variant (tools/learn.py writes them)."""
