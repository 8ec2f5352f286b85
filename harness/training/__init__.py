"""Training our agents' networks: train-nnue (harness/training/nnue.py, docs/advanced.md)."""
